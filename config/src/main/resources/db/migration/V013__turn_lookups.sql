-- A question about past work reads the prompts and replies its memories cite by event id
-- (CitationQueries.sourceFields). Without these the lookup scans every turn: 67 ms against
-- 10 ms for 60 ids in 300k rows, measured in the issue-41 note.
CREATE INDEX IF NOT EXISTS idx_turns_prompt_event ON turns(prompt_event_id);
CREATE INDEX IF NOT EXISTS idx_turns_reply_event ON turns(reply_event_id);

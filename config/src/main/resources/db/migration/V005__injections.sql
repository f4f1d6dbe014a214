-- What the hook put into Claude Code's context, recorded through the spool (the hook never opens DuckDB) and
-- loaded by the ingest step. Append-only like events; never the prompt or the injected text.
CREATE TABLE IF NOT EXISTS injections (
  injection_id     VARCHAR PRIMARY KEY,      -- deterministic: hash of session, prompt event, hook and time
  session_id       VARCHAR,
  prompt_event_id  VARCHAR,                  -- events.event_id of the hook line that triggered it
  hook_event_name  VARCHAR NOT NULL,         -- UserPromptSubmit | SessionStart
  band             VARCHAR NOT NULL,         -- high | suggested | none | session_start
  chars            INTEGER NOT NULL,         -- length of the injected text
  injected_at      TIMESTAMP NOT NULL,       -- UTC
  spool_file       VARCHAR NOT NULL,
  spool_line       BIGINT NOT NULL,
  ingested_at      TIMESTAMP NOT NULL DEFAULT (now() AT TIME ZONE 'UTC')
);
CREATE INDEX IF NOT EXISTS idx_injections_session ON injections(session_id);
CREATE INDEX IF NOT EXISTS idx_injections_prompt ON injections(prompt_event_id);

-- The memories of one injection, best first. No foreign key: rows are written with their injection in one
-- transaction, and DuckDB foreign keys would forbid ever rewriting a parent.
CREATE TABLE IF NOT EXISTS injection_items (
  injection_id     VARCHAR NOT NULL,
  rank             INTEGER NOT NULL,         -- 1 = best
  citation         VARCHAR NOT NULL,         -- mem:xxxxxx as printed to Claude
  memory_id        VARCHAR NOT NULL,
  score            DOUBLE NOT NULL,
  PRIMARY KEY (injection_id, rank)
);
CREATE INDEX IF NOT EXISTS idx_injection_items_memory ON injection_items(memory_id);

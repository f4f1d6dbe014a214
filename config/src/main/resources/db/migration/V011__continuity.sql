-- How much each session went on with the previous session of its project. A session's work items are the files it
-- edited or read, the tasks it spoke of and the active topics its memories are in; the score is the items both
-- sessions have over the items of the smaller of the two (1: one session's work lies wholly in the other's).
-- Derived at graduation (scoreContinuityStep); a session that grows is scored again.
CREATE TABLE IF NOT EXISTS session_continuity (
  session_id           VARCHAR PRIMARY KEY,
  previous_session_id  VARCHAR NOT NULL,
  last_seq             BIGINT NOT NULL,       -- the session's extent when scored
  previous_items       INTEGER NOT NULL,
  own_items            INTEGER NOT NULL,
  shared_items         INTEGER NOT NULL,
  score                DOUBLE,                -- shared / least(previous, own); NULL when either has no items
  scored_at            TIMESTAMP NOT NULL
);

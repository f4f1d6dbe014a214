-- What the user erased with `forget`, kept as keys only (never the text), so nothing brings it back: ingest skips
-- events whose dedupe key or session is here (a re-import of the same transcripts or hook files adds nothing), and
-- graduation never re-creates a forgotten candidate or memory from the events that remain.
CREATE TABLE IF NOT EXISTS forgotten (
  kind          VARCHAR NOT NULL,            -- event (events.dedupe_key) | session (session_id) | entry | candidate
  key           VARCHAR NOT NULL,
  forget_id     VARCHAR NOT NULL,            -- the forget run that wrote it (see logs/forget.log)
  forgotten_at  TIMESTAMP NOT NULL,
  PRIMARY KEY (kind, key)
);

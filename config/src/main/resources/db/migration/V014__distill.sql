-- Distillation (opt-in, code-memory.distill.*): what the developer's own model answered about a finished session.
-- Neither table is derived from the events by rules, so a change of graduation rules clears neither: a session
-- already answered is never paid for again, and its proven claims are proven and stored again from here.
--
-- One row per session and distiller version: the outcome (answered, skipped: too small, failed: retried after
-- next_attempt_at, gave_up after too many failures), the claims that were proven (rejected claims are only counted,
-- by reason, never kept), and how many attempts it took.
CREATE TABLE IF NOT EXISTS distill_answers (
  session_id       VARCHAR NOT NULL,
  version          VARCHAR NOT NULL,
  outcome          VARCHAR NOT NULL,
  claims_json      VARCHAR,
  rejected_json    VARCHAR,
  attempts         INTEGER NOT NULL,
  next_attempt_at  TIMESTAMP,
  last_error       VARCHAR,
  updated_at       TIMESTAMP NOT NULL,
  PRIMARY KEY (session_id, version)
);

-- One row per request sent to the model, what it cost in tokens (estimated when the model did not say: a request
-- that timed out is counted as its estimated input plus the whole output cap). The daily budget is read from here.
CREATE TABLE IF NOT EXISTS distill_calls (
  session_id     VARCHAR NOT NULL,
  called_at      TIMESTAMP NOT NULL,
  day            DATE NOT NULL,
  input_tokens   BIGINT NOT NULL,
  output_tokens  BIGINT NOT NULL,
  estimated      BOOLEAN NOT NULL,
  outcome        VARCHAR NOT NULL
);
CREATE INDEX IF NOT EXISTS idx_distill_calls_day ON distill_calls(day);

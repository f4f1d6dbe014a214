-- L0: every hook event, append-only. Nothing in the code updates or deletes these rows.
-- ts is the event time in UTC (the hook line's "timestamp" when given, else the time of receipt).
CREATE TABLE IF NOT EXISTS events (
  event_id     VARCHAR PRIMARY KEY,          -- deterministic: derived from dedupe_key
  dedupe_key   VARCHAR NOT NULL UNIQUE,      -- hash of what makes the event itself (see HookEventProcessor)
  seq          BIGINT NOT NULL UNIQUE,       -- ingest order (spool order); downstream stages keep watermarks on it
  ts           TIMESTAMP NOT NULL,
  received_at  TIMESTAMP NOT NULL,
  event_type   VARCHAR NOT NULL,             -- hook_event_name
  session_id   VARCHAR,
  project      VARCHAR NOT NULL,             -- git top level of cwd, else cwd
  cwd          VARCHAR,
  source       VARCHAR NOT NULL,             -- hook | import
  payload      JSON NOT NULL,                -- the redacted hook object, unknown fields kept
  checksum     VARCHAR NOT NULL,             -- sha-256 of payload
  spool_file   VARCHAR NOT NULL,
  spool_line   BIGINT NOT NULL,
  ingested_at  TIMESTAMP NOT NULL DEFAULT (now() AT TIME ZONE 'UTC')
);
CREATE INDEX IF NOT EXISTS idx_events_ts ON events(ts);
CREATE INDEX IF NOT EXISTS idx_events_session ON events(session_id);
CREATE INDEX IF NOT EXISTS idx_events_project ON events(project);

-- Spool lines that could not become events, kept whole (redacted) with the reason.
CREATE TABLE IF NOT EXISTS event_rejects (
  reject_id    VARCHAR PRIMARY KEY,          -- derived from (spool_file, spool_line)
  spool_file   VARCHAR NOT NULL,
  spool_line   BIGINT NOT NULL,
  reason       VARCHAR NOT NULL,
  raw_text     VARCHAR NOT NULL,
  received_at  TIMESTAMP,
  rejected_at  TIMESTAMP NOT NULL DEFAULT (now() AT TIME ZONE 'UTC')
);

-- How far each downstream stage has read events (by seq).
CREATE TABLE IF NOT EXISTS processing_watermarks (
  stage        VARCHAR PRIMARY KEY,
  last_seq     BIGINT NOT NULL,
  updated_at   TIMESTAMP NOT NULL
);

-- One row per job execution.
CREATE TABLE IF NOT EXISTS build_runs (
  build_id           VARCHAR PRIMARY KEY,    -- <job name>-<job execution id>
  job_name           VARCHAR NOT NULL,
  job_execution_id   BIGINT NOT NULL,
  started_at         TIMESTAMP NOT NULL,
  finished_at        TIMESTAMP,
  status             VARCHAR NOT NULL,       -- running | COMPLETED | FAILED | STOPPED
  schema_version     INTEGER NOT NULL,
  error              VARCHAR
);

-- One row per step execution: counts and time.
CREATE TABLE IF NOT EXISTS pipeline_metrics (
  build_id            VARCHAR NOT NULL,
  step_name           VARCHAR NOT NULL,
  step_execution_id   BIGINT NOT NULL,
  status              VARCHAR NOT NULL,
  read_count          BIGINT NOT NULL,
  write_count         BIGINT NOT NULL,
  filter_count        BIGINT NOT NULL,
  skip_count          BIGINT NOT NULL,
  commit_count        BIGINT NOT NULL,
  duration_ms         BIGINT NOT NULL,
  recorded_at         TIMESTAMP NOT NULL,
  PRIMARY KEY (build_id, step_execution_id)
);

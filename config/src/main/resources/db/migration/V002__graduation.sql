-- Graduation: everything here is derived from events and can be rebuilt from them.

-- What we know of each session: project, start, end, branch.
CREATE TABLE IF NOT EXISTS sessions (
  session_id   VARCHAR PRIMARY KEY,
  project      VARCHAR NOT NULL,
  started_at   TIMESTAMP NOT NULL,
  ended_at     TIMESTAMP,                   -- SessionEnd time, when seen
  end_reason   VARCHAR,
  branch       VARCHAR,                     -- from the transcript, when readable
  first_seq    BIGINT NOT NULL,
  last_seq     BIGINT NOT NULL,
  prompt_count INTEGER NOT NULL,
  tool_count   INTEGER NOT NULL,
  extracted_seq BIGINT NOT NULL DEFAULT 0   -- last_seq the extractor has seen
);

-- A prompt and its reply.
CREATE TABLE IF NOT EXISTS turns (
  turn_id          VARCHAR PRIMARY KEY,
  session_id       VARCHAR NOT NULL,
  project          VARCHAR NOT NULL,
  prompt_event_id  VARCHAR NOT NULL,
  prompt_text      VARCHAR NOT NULL,
  reply_event_id   VARCHAR,
  reply_text       VARCHAR,
  reply_source     VARCHAR,                 -- stop | transcript
  prompt_ts        TIMESTAMP NOT NULL,
  reply_ts         TIMESTAMP
);
CREATE INDEX IF NOT EXISTS idx_turns_session ON turns(session_id);

-- What each tool call did.
CREATE TABLE IF NOT EXISTS observations (
  observation_id   VARCHAR PRIMARY KEY,     -- the PostToolUse event id
  session_id       VARCHAR NOT NULL,
  project          VARCHAR NOT NULL,
  tool             VARCHAR NOT NULL,
  files            JSON NOT NULL,
  command          VARCHAR,
  failed           BOOLEAN NOT NULL,
  error_text       VARCHAR,
  duration_ms      BIGINT,
  ts               TIMESTAMP NOT NULL,
  input_text       VARCHAR,
  output_text      VARCHAR
);
CREATE INDEX IF NOT EXISTS idx_observations_session ON observations(session_id);

-- L1: what the extractor claims, with its quotes.
CREATE TABLE IF NOT EXISTS candidates (
  candidate_id  VARCHAR PRIMARY KEY,
  kind          VARCHAR NOT NULL,
  session_id    VARCHAR NOT NULL,
  project       VARCHAR NOT NULL,
  ts            TIMESTAMP NOT NULL,
  title         VARCHAR NOT NULL,
  body          VARCHAR NOT NULL,
  task_json     JSON,
  quotes_json   JSON NOT NULL,
  extractor     VARCHAR NOT NULL,
  created_at    TIMESTAMP NOT NULL
);
CREATE INDEX IF NOT EXISTS idx_candidates_session ON candidates(session_id);

-- Candidates and entries that did not make it, with the stage and the reason. Kept for review.
CREATE TABLE IF NOT EXISTS graduation_rejects (
  subject_id    VARCHAR NOT NULL,           -- candidate_id (validate) or entry_id (align)
  stage         VARCHAR NOT NULL,           -- validate | align
  reason        VARCHAR NOT NULL,
  detail_json   JSON,
  rejected_at   TIMESTAMP NOT NULL,
  PRIMARY KEY (subject_id, stage)
);

-- L2/L3: typed memory units. stage: candidate (validated) → verified (every quote aligned) | unverified.
CREATE TABLE IF NOT EXISTS entries (
  entry_id       VARCHAR PRIMARY KEY,
  candidate_id   VARCHAR NOT NULL,
  entry_type     VARCHAR NOT NULL,
  project        VARCHAR NOT NULL,
  session_id     VARCHAR NOT NULL,
  created_ts     TIMESTAMP NOT NULL,
  title          VARCHAR NOT NULL,
  body           VARCHAR NOT NULL,
  task_json      JSON,
  quotes_json    JSON NOT NULL,
  canonical_key  VARCHAR NOT NULL,
  stage          VARCHAR NOT NULL,
  status         VARCHAR NOT NULL DEFAULT 'active',   -- active | superseded
  superseded_by  VARCHAR,
  created_at     TIMESTAMP NOT NULL
);
CREATE INDEX IF NOT EXISTS idx_entries_stage ON entries(stage);
CREATE INDEX IF NOT EXISTS idx_entries_key ON entries(canonical_key);

-- Where each quote of an entry was found in its source event.
CREATE TABLE IF NOT EXISTS evidence_spans (
  entry_id     VARCHAR NOT NULL,
  quote_index  INTEGER NOT NULL,
  event_id     VARCHAR NOT NULL,
  field        VARCHAR NOT NULL,
  span_start   INTEGER NOT NULL,
  span_end     INTEGER NOT NULL,
  confidence   DOUBLE NOT NULL,
  method       VARCHAR NOT NULL,            -- exact | whitespace | fuzzy
  quote_hash   VARCHAR NOT NULL,
  PRIMARY KEY (entry_id, quote_index)
);
CREATE INDEX IF NOT EXISTS idx_spans_event ON evidence_spans(event_id);

-- Task, condition and artifact entities; their state is a fold of task_events.
CREATE TABLE IF NOT EXISTS entities (
  entity_id      VARCHAR PRIMARY KEY,
  entity_type    VARCHAR NOT NULL,          -- task | condition | artifact
  canonical_key  VARCHAR NOT NULL,
  project        VARCHAR,
  title          VARCHAR NOT NULL,
  status         VARCHAR NOT NULL,
  current_json   JSON NOT NULL,
  updated_at     TIMESTAMP NOT NULL
);
CREATE INDEX IF NOT EXISTS idx_entities_type_key ON entities(entity_type, canonical_key);

CREATE TABLE IF NOT EXISTS entity_aliases (
  entity_type    VARCHAR NOT NULL,
  canonical_key  VARCHAR NOT NULL,
  entity_id      VARCHAR NOT NULL,
  is_primary     BOOLEAN NOT NULL,
  PRIMARY KEY (entity_type, canonical_key)
);

CREATE TABLE IF NOT EXISTS edges (
  edge_id    VARCHAR PRIMARY KEY,           -- derived from (src, rel, dst)
  src_type   VARCHAR NOT NULL,
  src_id     VARCHAR NOT NULL,
  rel_type   VARCHAR NOT NULL,              -- evidence_of | blocked_by | blocked_by_suggested | duplicate_of | supersedes | summarizes
  dst_type   VARCHAR NOT NULL,
  dst_id     VARCHAR NOT NULL,
  meta_json  JSON,
  created_at TIMESTAMP NOT NULL
);
CREATE INDEX IF NOT EXISTS idx_edges_src ON edges(src_id, rel_type);
CREATE INDEX IF NOT EXISTS idx_edges_dst ON edges(dst_id, rel_type);

-- Task events: the source of truth of task state (append-only, deduplicated).
CREATE TABLE IF NOT EXISTS task_events (
  dedupe_key   VARCHAR PRIMARY KEY,
  seq          BIGINT NOT NULL,
  event_type   VARCHAR NOT NULL,
  entity_id    VARCHAR NOT NULL,
  payload      JSON NOT NULL,
  ts           TIMESTAMP NOT NULL,
  source_entry VARCHAR
);

-- Which later stages have handled an entry or session (so a rerun skips it even when it produced nothing).
CREATE TABLE IF NOT EXISTS stage_marks (
  subject_id  VARCHAR NOT NULL,
  stage       VARCHAR NOT NULL,               -- tasks | merge | summary
  done_at     TIMESTAMP NOT NULL,
  PRIMARY KEY (subject_id, stage)
);

-- The working set SessionStart shows for a project: verified, active memories of its last three sessions.
CREATE VIEW IF NOT EXISTS working_set AS
WITH recent AS (
  SELECT session_id, project, row_number() OVER (PARTITION BY project ORDER BY started_at DESC, session_id) AS n
  FROM sessions)
SELECT e.project, e.session_id, r.n AS sessions_ago, e.entry_id, e.entry_type, e.title, e.created_ts
FROM entries e JOIN recent r ON r.session_id = e.session_id
WHERE r.n <= 3 AND e.stage = 'verified' AND e.status = 'active';

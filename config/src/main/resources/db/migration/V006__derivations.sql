-- Which rules derived the graduated rows (sessions, candidates, entries, tasks, summaries). When graduation's rules
-- change, the next run rebuilds every derived row from the events under the new rules: a memory the new rules
-- still make keeps its id, hence its citation and its vector; one they no longer make is gone from lookup.
CREATE TABLE IF NOT EXISTS derivations (
  component   VARCHAR PRIMARY KEY,          -- graduation
  version     VARCHAR NOT NULL,             -- e.g. rules-v2
  applied_at  TIMESTAMP NOT NULL
);

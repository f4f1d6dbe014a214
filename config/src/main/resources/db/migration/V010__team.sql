-- What this home has published to the team store (code-memory.team.*), by memory id: keys and times only, never text.
-- The publish job skips what is here, and withdraws (a tombstone in the team store) what is here but no longer a
-- verified, active memory of this home: forgotten, superseded. Forget leaves these rows, so a forgotten memory still
-- reaches the team as a tombstone.
CREATE TABLE IF NOT EXISTS team_published (
  memory_id     VARCHAR PRIMARY KEY,
  team_project  VARCHAR NOT NULL,           -- the project's key in the team store (see TeamProjectKey)
  published_at  TIMESTAMP NOT NULL,
  withdrawn_at  TIMESTAMP                   -- the tombstone's time, once written
);

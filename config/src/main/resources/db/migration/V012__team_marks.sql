-- Preferences the user marked for the team (`share mem:…`): a preference is one person's way of working until they
-- say it is the team's, so only the marked ones are published (code-memory.team.*); unmarking one withdraws it at the
-- next publish. Keys and times only, never text. Forget removes a memory's mark with it.
CREATE TABLE IF NOT EXISTS team_marks (
  memory_id  VARCHAR PRIMARY KEY,
  marked_at  TIMESTAMP NOT NULL
);

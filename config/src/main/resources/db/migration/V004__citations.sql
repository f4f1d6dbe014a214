-- Citations: the short, stable handle of a memory that users and injected context quote as [mem:xxxxxx].
-- Assigned once per verified memory and never changed, so a citation quoted yesterday still resolves.
-- The code is the first 6 characters of base64url(sha256(memory_id)); a memory whose code is taken retries
-- with sha256(memory_id || '#' || n) for n = 1, 2, … (see DuckDbCitationWriter).
CREATE TABLE IF NOT EXISTS citations (
  citation    VARCHAR PRIMARY KEY,          -- 6 URL-safe base64 characters, without the "mem:" prefix
  memory_id   VARCHAR NOT NULL UNIQUE,      -- entries.entry_id
  created_at  TIMESTAMP NOT NULL
);

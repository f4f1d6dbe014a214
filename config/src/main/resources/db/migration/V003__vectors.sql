-- The vector outbox: DuckDB decides what the index should hold; one writer moves it there (DuckDB table or
-- Milvus) and records the outcome. Keyed by memory and embedding version, so every write is an idempotent upsert.
CREATE TABLE IF NOT EXISTS vector_outbox (
  memory_id          VARCHAR NOT NULL,
  embedding_version  VARCHAR NOT NULL,
  op                 VARCHAR NOT NULL,      -- upsert | delete
  status             VARCHAR NOT NULL,      -- pending | done | failed
  attempts           INTEGER NOT NULL,
  error              VARCHAR,
  updated_at         TIMESTAMP NOT NULL,
  PRIMARY KEY (memory_id, embedding_version)
);
CREATE INDEX IF NOT EXISTS idx_outbox_status ON vector_outbox(embedding_version, status);

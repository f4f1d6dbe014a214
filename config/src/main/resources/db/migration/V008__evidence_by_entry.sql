-- A memory's evidence by the memory: the prompt hook reads the source events of its top memories on every prompt,
-- and the primary key (entry_id, quote_index) answers only a lookup by both columns. Without this, each read scanned
-- every span (~9 ms at a million memories, ~2 ms with it).
CREATE INDEX IF NOT EXISTS idx_spans_entry ON evidence_spans(entry_id);

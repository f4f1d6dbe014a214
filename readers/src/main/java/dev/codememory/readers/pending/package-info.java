/**
 * {@link dev.codememory.readers.pending.PendingItemReader}, the reader of every chunked
 * graduation stage (turns, extract, validate, align, task, consolidate, facts, summary,
 * vector): each stage gives it the query of its pending keys and the loader of its items,
 * both in the stage's own package. Shared by all of them, so it belongs to none.
 */
package dev.codememory.readers.pending;

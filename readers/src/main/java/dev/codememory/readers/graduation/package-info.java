/**
 * What several graduation stages read alike, so it belongs to none of them: entries,
 * loaded the same way by the align, task and consolidate stages, and the JSON shapes of
 * quotes and task fields that entries and candidates share. Each stage's own queries sit
 * in the package named for its stage, the same word as its processor and writer
 * ({@code turns}, {@code extract}, {@code validate}, {@code align}, {@code task},
 * {@code consolidate}, {@code facts}, {@code summary}, {@code vector}); the reader they
 * all use is {@link dev.codememory.readers.pending.PendingItemReader}.
 */
package dev.codememory.readers.graduation;

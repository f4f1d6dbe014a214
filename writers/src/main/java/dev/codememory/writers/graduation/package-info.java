/**
 * What several graduation stages write alike, so it belongs to none of them. Each stage's
 * own writer sits in the package named for its stage, the same word as its reader and
 * processor ({@code turns}, {@code extract}, {@code validate}, {@code align},
 * {@code rules}, {@code facts}, {@code citation}, {@code summary}, {@code vector}); here
 * are only:
 *
 * <ul>
 * <li>{@link dev.codememory.writers.graduation.DuckDbGraphWriter}, the writer of two
 * stages: task resolution ({@code resolveTasksStep}) and near-duplicate merging
 * ({@code mergeDuplicatesStep}) both emit graph updates;</li>
 * <li>{@link dev.codememory.writers.graduation.Edges}, the edge id and insert-if-absent
 * of the stages that link rows (task, consolidate, summary; validate computes the same id
 * in SQL);</li>
 * <li>{@link dev.codememory.writers.graduation.GraduationJson}, the JSON forms of quotes,
 * task fields and file lists that the turns, extract, validate and summary writers
 * store.</li>
 * </ul>
 */
package dev.codememory.writers.graduation;

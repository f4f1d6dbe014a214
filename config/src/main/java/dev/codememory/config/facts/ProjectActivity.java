package dev.codememory.config.facts;

import java.time.LocalDateTime;
import java.util.List;
import java.util.Objects;

/**
 * What a project's sessions did that says how the project works: the shell commands that
 * ran without failing and the files that were edited, across all its sessions.
 *
 * @param extent a number that grows whenever the project's observations do (their count):
 * facts are worked out again when it changes
 * @param runs Bash calls that did not fail and were not refused, in time order
 * @param edits successful edits (Edit, MultiEdit, Write, NotebookEdit), in time order,
 * one per file edited
 */
public record ProjectActivity(String project, long extent, List<Run> runs, List<Edit> edits) {

    public ProjectActivity {
        Objects.requireNonNull(project, "project");
        runs = List.copyOf(runs);
        edits = List.copyOf(edits);
    }

    /**
     * A Bash call that did not fail: its event, session, time, command, and the head of
     * its output (a call the user refused also reports no failure; its output says so).
     */
    public record Run(String observationId, String sessionId, LocalDateTime ts, String command, String outputHead) {
    }

    /**
     * An edit of one file: its event, session, time and the path as the tool input gives
     * it.
     */
    public record Edit(String observationId, String sessionId, LocalDateTime ts, String file) {
    }

    /**
     * The facts worked out for a project at an extent, to store with the candidates they
     * make.
     */
    public record Outcome(String project, long extent, List<dev.codememory.config.graduate.Candidate> candidates) {

        public Outcome {
            Objects.requireNonNull(project, "project");
            candidates = List.copyOf(candidates);
        }
    }
}

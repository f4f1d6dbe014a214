package dev.codememory.processors.shell;

import java.util.List;
import java.util.Objects;

/**
 * One piece of work a command line records: a commit, a pull request or an issue it
 * creates. Read by {@link ShellWork#parse(String)}.
 *
 * @param kind what is created
 * @param subject the commit message's first non-blank line, or the title of a pull
 * request or issue, as the shell delivers it, stripped; never blank
 * @param body the rest of the message, or the pull request's or issue's body, stripped,
 * boilerplate trailers removed; empty when there is none
 * @param subjectStart where the subject as written (still quoted or escaped) starts in
 * the command
 * @param subjectEnd where it ends: {@code command.substring(subjectStart, subjectEnd)} is
 * non-blank and holds the subject's words
 * @param paths for a commit, the paths given to {@code git add} before it in the same
 * command line and the pathspecs given to {@code git commit}, each once, in the order
 * written; empty otherwise
 */
public record RecordedWork(Kind kind, String subject, String body, int subjectStart, int subjectEnd,
        List<String> paths) {

    /** What a command line creates. */
    public enum Kind {

        COMMIT, PULL_REQUEST, ISSUE

    }

    public RecordedWork {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(body, "body");
        if (subject.isBlank()) {
            throw new IllegalArgumentException("blank subject");
        }
        if (subjectStart < 0 || subjectEnd <= subjectStart) {
            throw new IllegalArgumentException("bad subject span " + subjectStart + ".." + subjectEnd);
        }
        paths = List.copyOf(paths);
    }
}

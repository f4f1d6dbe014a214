package dev.codememory.processors.shell;

import java.util.List;
import java.util.Objects;

/**
 * One simple command of a command line: its words and redirections, as
 * {@link ShellParser} read them.
 *
 * @param separator the operator before it: {@code ""} for the first command, else one of
 * {@code && || ; | & |&
 *                       ;; ( )} or a line break
 * @param separatorStart where that operator starts in the raw text, -1 for the first
 * command
 * @param start where the first word or redirection starts
 * @param end where the last word or redirection ends (a here-document's body lies after
 * it)
 */
record ShellCommand(String separator, int separatorStart, List<Word> words, List<Redirect> redirects, int start,
        int end) {

    ShellCommand {
        Objects.requireNonNull(separator, "separator");
        words = List.copyOf(words);
        redirects = List.copyOf(redirects);
        if (start < 0 || end < start) {
            throw new IllegalArgumentException("bad span " + start + ".." + end);
        }
    }

    /**
     * A word as the shell delivers it ({@code text}) and as written
     * ({@code raw[start, end)}).
     */
    record Word(ShellText text, int start, int end) {

        Word {
            Objects.requireNonNull(text, "text");
        }

        String value() {
            return text.value();
        }
    }

    /**
     * A redirection: {@code fd} (digits written before the operator, often empty), the
     * operator ({@code < > >> <<
     * <<- <<< <& >& <> >| &> &>>}), its target word (null when none was written) and, for
     * {@code <<} and {@code <<-}, the here-document.
     */
    record Redirect(String fd, String operator, Word target, HereDocument document, int start, int end) {

        Redirect {
            Objects.requireNonNull(fd, "fd");
            Objects.requireNonNull(operator, "operator");
        }
    }

    /**
     * What the command reads on standard input when the command line says: the last
     * here-document or here-string given to file descriptor 0 (a here-string delivers its
     * word and a line break); null when none is given or the last input redirection names
     * a file.
     */
    ShellText stdin() {
        ShellText in = null;
        for (Redirect r : redirects) {
            if (!r.fd().isEmpty() && !r.fd().equals("0")) {
                continue;
            }
            switch (r.operator()) {
                case "<<", "<<-" ->
                    in = r.document() == null || r.document().body() == null ? new ShellText() : r.document().body();
                case "<<<" -> {
                    in = new ShellText();
                    if (r.target() != null) {
                        in.addAll(r.target().text());
                    }
                    in.addSynthetic("\n");
                }
                case "<", "<>", "<&" -> in = null;
                default -> {
                    // output redirections leave stdin alone
                }
            }
        }
        return in;
    }
}

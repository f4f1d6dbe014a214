package dev.codememory.processors.shell;

import dev.codememory.processors.shell.ShellCommand.Redirect;
import dev.codememory.processors.shell.ShellCommand.Word;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The form of a command line compared to tell "the same command ran again" (a retry after
 * a fix). Stateless and thread-safe.
 */
public final class CommandKey {

    private static final Pattern WHITESPACE = Pattern.compile("\\s+");

    private static final Pattern DURATION = Pattern.compile("\\d+(?:\\.\\d+)?[smhd]?");

    private CommandKey() {
    }

    /**
     * {@code command} with the parts that do not change what runs left out. The command
     * line is read as bash reads it (so quoted text never looks like an operator), then,
     * repeated while any applies:
     * <ol>
     * <li>a leading {@code cd
     *
    <dir>
     * } (one argument, no redirection; not inside a subshell) followed by {@code &&} or
     * {@code ;} is dropped when a command follows;</li>
     * <li>a leading {@code timeout <n>} ({@code n} a number with an optional
     * {@code s m h d} unit) is dropped when a command follows it;</li>
     * <li>a trailing {@code | head …} or {@code | tail …} command is dropped;</li>
     * <li>a trailing {@code ; echo …} that prints {@code $?} is dropped;</li>
     * <li>a trailing {@code && echo …} is dropped;</li>
     * <li>a trailing redirection {@code 2>&1} is dropped;</li>
     * </ol>
     * a trailing part is kept, though, when a here-document body of the kept part follows
     * it. What remains is kept verbatim (assignments, flags, {@code | grep …}, quotes as
     * written) with every run of whitespace collapsed to one space and the ends stripped.
     * Empty for null or blank text.
     */
    public static String normalize(String command) {
        if (command == null || command.isBlank()) {
            return "";
        }
        List<ShellCommand> commands = ShellParser.parse(command);
        if (commands.isEmpty()) {
            return collapse(command);
        }
        int first = 0;
        int last = commands.size() - 1;
        int start = command.length() - command.stripLeading().length();
        int end = command.length();
        boolean changed = true;
        while (changed) {
            changed = false;
            ShellCommand head = commands.get(first);
            boolean leading = head.separator().isEmpty() || isAndOrSemicolon(head.separator());
            if (leading && first < last && isCd(head) && isAndOrSemicolon(commands.get(first + 1).separator())) {
                first++;
                start = commands.get(first).start();
                changed = true;
                continue;
            }
            List<Word> words = head.words();
            int timeoutAt = indexOfWord(words, start);
            if (timeoutAt >= 0 && words.size() > timeoutAt + 2 && words.get(timeoutAt).value().equals("timeout")
                    && DURATION.matcher(words.get(timeoutAt + 1).value()).matches()) {
                start = words.get(timeoutAt + 2).start();
                changed = true;
                continue;
            }
            ShellCommand tail = commands.get(last);
            if (last > first && isDroppableTail(tail)
                    && noHereDocumentAfter(commands, first, last - 1, tail.separatorStart())) {
                end = tail.separatorStart();
                last--;
                changed = true;
                continue;
            }
            Redirect r = lastRedirect(tail);
            if (r != null && r.end() <= end && command.substring(r.start(), r.end()).equals("2>&1")
                    && endsWithin(command, r.end(), end) && r.start() > start
                    && noHereDocumentAfter(commands, first, last, r.start())) {
                end = r.start();
                changed = true;
            }
        }
        return collapse(command.substring(start, Math.max(start, end)));
    }

    private static String collapse(String text) {
        return WHITESPACE.matcher(text).replaceAll(" ").strip();
    }

    private static boolean isCd(ShellCommand c) {
        return c.words().size() == 2 && c.redirects().isEmpty() && c.words().get(0).value().equals("cd");
    }

    private static boolean isAndOrSemicolon(String separator) {
        return separator.equals("&&") || separator.equals(";");
    }

    /**
     * The index of the first word of {@code words} that starts at or after {@code start},
     * or -1.
     */
    private static int indexOfWord(List<Word> words, int start) {
        for (int i = 0; i < words.size(); i++) {
            if (words.get(i).start() >= start) {
                return i;
            }
        }
        return -1;
    }

    private static boolean isDroppableTail(ShellCommand c) {
        if (c.words().isEmpty()) {
            return false;
        }
        String program = c.words().get(0).value();
        return switch (c.separator()) {
            case "|" -> program.equals("head") || program.equals("tail");
            case ";" -> program.equals("echo") && c.words().stream().anyMatch(w -> w.value().contains("$?"));
            case "&&" -> program.equals("echo");
            default -> false;
        };
    }

    private static Redirect lastRedirect(ShellCommand c) {
        Redirect last = null;
        for (Redirect r : c.redirects()) {
            if (last == null || r.start() > last.start()) {
                last = r;
            }
        }
        return last;
    }

    /** True when only whitespace lies between {@code from} and {@code to}. */
    private static boolean endsWithin(String s, int from, int to) {
        return s.substring(from, Math.max(from, to)).isBlank();
    }

    private static boolean noHereDocumentAfter(List<ShellCommand> commands, int first, int last, int cut) {
        for (int i = first; i <= last; i++) {
            for (Redirect r : commands.get(i).redirects()) {
                if (r.document() != null && r.document().bodyStart() >= cut) {
                    return false;
                }
            }
        }
        return true;
    }

}

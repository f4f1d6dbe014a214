package dev.codememory.processors.shell;

import dev.codememory.processors.shell.RecordedWork.Kind;
import dev.codememory.processors.shell.ShellCommand.Word;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Finds the commits, pull requests and issues a Bash command line creates. Stateless and
 * thread-safe.
 *
 * <h2>Which invocations count</h2> The command line is read the way bash reads it:
 * separators ({@code && || ; | &}, line breaks, subshell parentheses), quoting
 * ({@code '…'}, {@code "…"} with its backslash escapes, {@code $'…'} ANSI-C escapes),
 * here-documents ({@code <<EOF}, {@code <<'EOF'}, {@code <<"EOF"}, {@code <<-EOF}) and
 * here-strings; a {@code "$(cat <<'EOF' … EOF)"} delivers the here-document's text, other
 * expansions ({@code $VAR}, {@code $(…)}, backquotes) are kept as written. Only top-level
 * simple commands count, so text inside another command's arguments
 * ({@code echo "git commit -m x"}, {@code sh -c '…'}) or inside a {@code $(…)} does not.
 * Text cut short (an unbalanced quote, a missing delimiter line) is read up to the cut. A
 * command's leading assignments ({@code FOO=1}), the reserved words {@code ! { } if then
 * else elif do while until time} and the wrappers {@code env}, {@code command},
 * {@code exec}, {@code nohup} are skipped before its program name. In order of the
 * command line:
 * <ul>
 * <li><b>{@code git [global options] commit …}</b> (global options: {@code -C
 *
<dir>
 * }, {@code -c <name=value>}, {@code --git-dir}, {@code --work-tree}, {@code --namespace}
 * with a separate or {@code =} value, and any other flag) is a {@link Kind#COMMIT} when
 * it carries a message: every {@code -m <msg>}, {@code -m<msg>}, {@code --message=<msg>},
 * {@code --message <msg>} (also inside a cluster such as {@code -am <msg>}) is one
 * paragraph, joined by a blank line; without one, {@code -F -} / {@code --file=-} /
 * {@code --file -} take the message from the command's here-document or here-string. Not
 * a commit: no message (the editor, {@code -C}, {@code --no-edit}, {@code -F <file>}),
 * {@code --help}, {@code -h}, {@code --dry-run}, {@code commit-tree} and any other
 * subcommand.</li>
 * <li><b>{@code git add …}</b> contributes its pathspecs to the next commit of the
 * command line: every argument that is not an option (after {@code --} every argument),
 * except {@code .} and {@code ./}; options {@code --chmod} and
 * {@code --pathspec-from-file} take a value. A commit's own pathspecs (non-option
 * arguments, everything after {@code --}) follow. Paths are kept as the shell delivers
 * them, each once. Each {@code git commit}, recorded or not, starts a fresh set.</li>
 * <li><b>{@code gh pr create}</b> / {@code gh issue create} (also {@code new}) is a
 * {@link Kind#PULL_REQUEST} / {@link Kind#ISSUE} when it has a title: {@code --title T},
 * {@code --title=T}, {@code -t T}, {@code -tT}; the body is {@code --body} / {@code -b}
 * in the same forms; {@code --body-file} / {@code -F} give an empty body unless the file
 * is {@code -} and the command has a here-document or here-string. The last occurrence
 * wins. {@code --dry-run} creates nothing and is skipped.</li>
 * </ul>
 *
 * <h2>Subject and body</h2> The subject is the first non-blank line of the message (or
 * title), stripped. It must hold a letter or digit outside the expansions kept as written
 * (a message that is only {@code $MSG} or {@code $(cat msg.txt)} says nothing), else the
 * invocation is not reported. Its span in the command runs from where its first character
 * was written to where its last one was, so escapes inside it ({@code \"}) are covered
 * whole. The body is the lines after the subject's (for a pull request or issue: the body
 * option), without boilerplate lines ({@code Co-Authored-By:}, {@code Co-authored-by:},
 * {@code Signed-off-by:} in any case, {@code 🤖 Generated with [Claude Code](…)},
 * {@code Generated with Claude Code}) and the blank lines they leave, stripped.
 */
public final class ShellWork {

    private static final Set<String> RESERVED = Set.of("!", "{", "}", "if", "then", "else", "elif", "do", "while",
            "until", "time");

    private static final Set<String> WRAPPERS = Set.of("env", "command", "exec", "nohup");

    private static final Set<String> GIT_GLOBALS_WITH_VALUE = Set.of("-C", "-c", "--git-dir", "--work-tree",
            "--namespace", "--config-env", "--exec-path");

    private static final Set<String> COMMIT_LONG_WITH_VALUE = Set.of("--author", "--date", "--reuse-message",
            "--reedit-message", "--fixup", "--squash", "--template", "--cleanup", "--trailer", "--pathspec-from-file");

    private static final String COMMIT_SHORT_WITH_VALUE = "mFCct";

    private static final String COMMIT_SHORT_OPTIONAL_VALUE = "uS";

    private static final Set<String> ADD_LONG_WITH_VALUE = Set.of("--chmod", "--pathspec-from-file");

    private static final Set<String> GH_LONG_WITH_VALUE = Set.of("--title", "--body", "--body-file", "--base", "--head",
            "--label", "--assignee", "--reviewer", "--milestone", "--project", "--repo", "--template", "--recover");

    private static final String GH_SHORT_WITH_VALUE = "tbFBHlarmpRT";

    private ShellWork() {
    }

    /**
     * Every commit, pull request and issue that {@code command} creates, in the order
     * written; empty for null or for a command line that creates none. Never throws on
     * malformed or truncated text.
     */
    public static List<RecordedWork> parse(String command) {
        List<RecordedWork> out = new ArrayList<>();
        if (command == null || command.isBlank()) {
            return out;
        }
        Set<String> added = new LinkedHashSet<>();
        for (ShellCommand cmd : ShellParser.parse(command)) {
            List<Word> w = invocation(cmd.words());
            if (w.isEmpty()) {
                continue;
            }
            String program = w.get(0).value();
            if (program.equals("git") || program.endsWith("/git")) {
                int i = skipGitGlobals(w);
                String sub = i < w.size() ? w.get(i).value() : "";
                if (sub.equals("add")) {
                    addPaths(w, i + 1, added);
                }
                else if (sub.equals("commit")) {
                    RecordedWork commit = commit(cmd, w, i + 1, added);
                    if (commit != null) {
                        out.add(commit);
                    }
                    added = new LinkedHashSet<>();
                }
            }
            else if ((program.equals("gh") || program.endsWith("/gh")) && w.size() >= 3
                    && (w.get(2).value().equals("create") || w.get(2).value().equals("new"))) {
                String what = w.get(1).value();
                if (what.equals("pr") || what.equals("issue")) {
                    RecordedWork created = ghCreate(cmd, w, what.equals("pr") ? Kind.PULL_REQUEST : Kind.ISSUE);
                    if (created != null) {
                        out.add(created);
                    }
                }
            }
        }
        return out;
    }

    /** The words from the program name on. */
    private static List<Word> invocation(List<Word> words) {
        int i = 0;
        while (i < words.size()) {
            String v = words.get(i).value();
            if (RESERVED.contains(v) || WRAPPERS.contains(v) || isAssignment(v)
                    || i > 0 && words.get(i - 1).value().equals("env") && v.startsWith("-")) {
                i++;
            }
            else {
                break;
            }
        }
        return words.subList(i, words.size());
    }

    private static boolean isAssignment(String word) {
        int eq = word.indexOf('=');
        if (eq <= 0 || !(Character.isLetter(word.charAt(0)) || word.charAt(0) == '_')) {
            return false;
        }
        for (int i = 1; i < eq; i++) {
            char c = word.charAt(i);
            if (!(Character.isLetterOrDigit(c) || c == '_')) {
                return false;
            }
        }
        return true;
    }

    /**
     * The index of git's subcommand in {@code w} (1 past {@code git} and its global
     * options).
     */
    private static int skipGitGlobals(List<Word> w) {
        int i = 1;
        while (i < w.size() && w.get(i).value().startsWith("-")) {
            i += GIT_GLOBALS_WITH_VALUE.contains(w.get(i).value()) ? 2 : 1;
        }
        return i;
    }

    private static void addPaths(List<Word> w, int from, Set<String> into) {
        boolean options = true;
        for (int j = from; j < w.size(); j++) {
            String a = w.get(j).value();
            if (options && a.equals("--")) {
                options = false;
            }
            else if (options && a.startsWith("-") && a.length() > 1) {
                if (ADD_LONG_WITH_VALUE.contains(a)) {
                    j++;
                }
            }
            else if (!a.isEmpty() && !a.equals(".") && !a.equals("./")) {
                into.add(a);
            }
        }
    }

    private static RecordedWork commit(ShellCommand cmd, List<Word> w, int from, Set<String> added) {
        List<ShellText> paragraphs = new ArrayList<>();
        boolean fromStdin = false;
        Set<String> paths = new LinkedHashSet<>(added);
        boolean options = true;
        for (int j = from; j < w.size(); j++) {
            Word word = w.get(j);
            String a = word.value();
            if (!options || !a.startsWith("-") || a.equals("-")) {
                if (!a.isEmpty()) {
                    paths.add(a);
                }
                continue;
            }
            if (a.equals("--")) {
                options = false;
            }
            else if (a.startsWith("--")) {
                int eq = a.indexOf('=');
                String name = eq < 0 ? a : a.substring(0, eq);
                ShellText value = eq >= 0 ? word.text().tail(eq + 1) : null;
                boolean takesValue = name.equals("--message") || name.equals("--file")
                        || COMMIT_LONG_WITH_VALUE.contains(name);
                if (takesValue && value == null && j + 1 < w.size()) {
                    value = w.get(++j).text();
                }
                switch (name) {
                    case "--help", "--dry-run" -> {
                        return null;
                    }
                    case "--message" -> {
                        if (value != null) {
                            paragraphs.add(value);
                        }
                    }
                    case "--file" -> fromStdin = value != null && value.value().equals("-");
                    default -> {
                        // flags, and options whose value says nothing about the message
                    }
                }
            }
            else {
                for (int k = 1; k < a.length(); k++) {
                    char flag = a.charAt(k);
                    if (flag == 'h') {
                        return null;
                    }
                    if (COMMIT_SHORT_OPTIONAL_VALUE.indexOf(flag) >= 0) {
                        break;
                    }
                    if (COMMIT_SHORT_WITH_VALUE.indexOf(flag) >= 0) {
                        ShellText value = k + 1 < a.length() ? word.text().tail(k + 1)
                                : j + 1 < w.size() ? w.get(++j).text() : null;
                        if (flag == 'm' && value != null) {
                            paragraphs.add(value);
                        }
                        else if (flag == 'F') {
                            fromStdin = value != null && value.value().equals("-");
                        }
                        break;
                    }
                }
            }
        }
        ShellText message;
        if (!paragraphs.isEmpty()) {
            message = new ShellText();
            for (ShellText p : paragraphs) {
                if (message.length() > 0) {
                    message.addSynthetic("\n\n");
                }
                message.addAll(p);
            }
        }
        else if (fromStdin) {
            message = cmd.stdin();
        }
        else {
            message = null;
        }
        return message == null ? null : work(Kind.COMMIT, message, null, List.copyOf(paths));
    }

    private static RecordedWork ghCreate(ShellCommand cmd, List<Word> w, Kind kind) {
        ShellText title = null;
        ShellText body = null;
        for (int j = 3; j < w.size(); j++) {
            Word word = w.get(j);
            String a = word.value();
            if (a.equals("--")) {
                break;
            }
            if (!a.startsWith("-") || a.length() < 2) {
                continue;
            }
            String name;
            ShellText value = null;
            if (a.startsWith("--")) {
                int eq = a.indexOf('=');
                name = eq < 0 ? a : a.substring(0, eq);
                if (eq >= 0) {
                    value = word.text().tail(eq + 1);
                }
                else if (GH_LONG_WITH_VALUE.contains(name) && j + 1 < w.size()) {
                    value = w.get(++j).text();
                }
            }
            else {
                name = shortFlag(a);
                if (name == null) {
                    continue;
                }
                value = a.length() > 2 ? word.text().tail(a.charAt(2) == '=' ? 3 : 2)
                        : j + 1 < w.size() ? w.get(++j).text() : null;
            }
            switch (name) {
                case "--dry-run" -> {
                    return null;
                }
                case "--title" -> title = value;
                case "--body" -> body = value;
                case "--body-file" -> body = value != null && value.value().equals("-") ? cmd.stdin() : null;
                default -> {
                    // other options say nothing about title or body
                }
            }
        }
        if (title == null) {
            return null;
        }
        return work(kind, title, body == null ? "" : Message.withoutBoilerplate(body.value()), List.of());
    }

    /**
     * The long name of a short gh option that takes a value ({@code -t} →
     * {@code --title}), else null.
     */
    private static String shortFlag(String a) {
        char c = a.charAt(1);
        if (GH_SHORT_WITH_VALUE.indexOf(c) < 0) {
            return null;
        }
        return switch (c) {
            case 't' -> "--title";
            case 'b' -> "--body";
            case 'F' -> "--body-file";
            default -> "-" + c;
        };
    }

    /**
     * A record for {@code text}'s subject, or null when it has none; the body is
     * {@code body} when given, else the rest of {@code text}.
     */
    private static RecordedWork work(Kind kind, ShellText text, String body, List<String> paths) {
        int[] subject = Message.subject(text);
        if (subject == null) {
            return null;
        }
        String value = text.value();
        return new RecordedWork(kind, value.substring(subject[0], subject[1]),
                body != null ? body : Message.body(value, subject[1]), text.rawFrom(subject[0]),
                text.rawTo(subject[1] - 1), paths);
    }

}

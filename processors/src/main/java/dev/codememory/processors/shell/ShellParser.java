package dev.codememory.processors.shell;

import dev.codememory.processors.shell.ShellCommand.Redirect;
import dev.codememory.processors.shell.ShellCommand.Word;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a bash command line into its simple commands, in the order written, with each
 * word unquoted as the shell would deliver it and mapped back to the raw text. Nothing is
 * executed and nothing is expanded except what is literal; the parser never throws, and a
 * text cut short (an unbalanced quote, a here-document without its delimiter line) yields
 * the commands up to the cut, the last word running to the end of the text.
 *
 * <h2>What it understands</h2>
 * <ul>
 * <li><b>Separators</b>: {@code && || ; & | |& ;; ;&}, line breaks and the parentheses of
 * a subshell start a new command. {@code \} before a line break joins lines. {@code #} at
 * the start of a word starts a comment that runs to the end of the line.</li>
 * <li><b>Quoting</b>: {@code '…'} is literal. In {@code "…"} a backslash escapes only
 * {@code $ ` " \} and a line break (which it removes); elsewhere it is kept. Outside
 * quotes a backslash escapes any character. {@code $'…'} decodes the ANSI-C escapes
 * ({@code \n \t \r \a \b \e \f \v \\ \' \" \? \xHH \NNN \cX}, and a backslash with
 * {@code u} or {@code U} before up to 4 or 8 hex digits); an unknown escape is kept as
 * written. {@code $"…"} reads as {@code "…"}.</li>
 * <li><b>Expansions</b> ({@code $name}, {@code $1}, {@code $?}, {@code ${…}},
 * {@code $((…))}, {@code `…`}, {@code <(…)}, {@code >(…)}) are kept as written and marked
 * as such in the {@link ShellText}. {@code $(…)} is parsed as a command list of its own
 * (nested at most {@value #MAX_DEPTH} deep; deeper ones are kept as written); its value
 * is the here-document or here-string of a lone {@code cat} (trailing line breaks
 * removed, as command substitution does), else it is kept as written.</li>
 * <li><b>Redirections</b> ({@code [n]< > >> <> >| <& >& <<< << <<-}, {@code &> &>>}) are
 * not words; their target word is read with them.</li>
 * <li><b>Here-documents</b>: the body starts after the line that announced it and ends at
 * a line equal to the delimiter (after tabs are removed for {@code <<-}; a trailing
 * carriage return is ignored). Inside a {@code $(…)} a line that starts with the
 * delimiter followed by {@code )} also ends it. A quoted delimiter gives a literal body;
 * otherwise {@code \$ \` \\} are unescaped, {@code \}+line break joins lines and
 * expansions are marked.</li>
 * </ul>
 * Not understood: aliases, functions, {@code case} patterns (their {@code )} ends a
 * command), brace expansion, word splitting of unquoted expansions, arrays.
 */
final class ShellParser {

    /**
     * How deep {@code $(…)} substitutions are parsed; deeper ones are kept as written.
     */
    static final int MAX_DEPTH = 32;

    private static final String[] OPERATORS = { "&&", "||", ";;&", ";;", ";&", ";", "|&", "|", "&" };

    private static final String[] REDIRECTS = { "<<<", "<<-", "<<", "<>", "<&", ">>", ">&", ">|", "<", ">" };

    private static final String SPECIAL_PARAMETERS = "0123456789@*#?$!-";

    private final String s;

    private final int n;

    private int pos;

    private ShellParser(String text) {
        this.s = text;
        this.n = text.length();
    }

    /**
     * The top-level simple commands of {@code command}, in the order written (those
     * inside {@code $(…)} excluded).
     */
    static List<ShellCommand> parse(String command) {
        return new ShellParser(command).list(0);
    }

    /**
     * Commands until the end of the text or, inside a substitution ({@code depth > 0}),
     * until the {@code )} that closes it, which is left for the caller.
     */
    private List<ShellCommand> list(int depth) {
        List<ShellCommand> out = new ArrayList<>();
        List<HereDocument> pending = new ArrayList<>();
        Builder cmd = new Builder("", -1);
        int subshells = 0;
        while (pos < n) {
            char c = s.charAt(pos);
            if (c == ' ' || c == '\t' || c == '\r' || c == '\f') {
                pos++;
            }
            else if (c == '\\' && pos + 1 < n && s.charAt(pos + 1) == '\n') {
                pos += 2;
            }
            else if (c == '#') {
                int nl = s.indexOf('\n', pos);
                pos = nl < 0 ? n : nl;
            }
            else if (c == '\n') {
                cmd.finish(out);
                cmd = new Builder("\n", pos);
                pos++;
                readHereDocuments(pending, depth);
            }
            else if (c == ')') {
                if (depth > 0 && subshells == 0) {
                    break;
                }
                subshells = Math.max(0, subshells - 1);
                cmd.finish(out);
                cmd = new Builder(")", pos);
                pos++;
            }
            else if (c == '(') {
                subshells++;
                cmd.finish(out);
                cmd = new Builder("(", pos);
                pos++;
            }
            else {
                String op = operator();
                if (op != null) {
                    cmd.finish(out);
                    cmd = new Builder(op, pos);
                    pos += op.length();
                }
                else if (!redirection(cmd, pending, depth)) {
                    int before = pos;
                    Word w = word(depth);
                    if (w != null) {
                        cmd.words.add(w);
                    }
                    if (pos == before) {
                        pos++;
                    }
                }
            }
        }
        cmd.finish(out);
        return out;
    }

    /**
     * The control operator at {@code pos}, or null ({@code &>} is a redirection, not
     * {@code &}).
     */
    private String operator() {
        if (s.startsWith("&>", pos)) {
            return null;
        }
        for (String op : OPERATORS) {
            if (s.startsWith(op, pos)) {
                return op;
            }
        }
        return null;
    }

    /**
     * Reads a redirection at {@code pos} into {@code cmd}; false (nothing read) when
     * there is none.
     */
    private boolean redirection(Builder cmd, List<HereDocument> pending, int depth) {
        int start = pos;
        int i = pos;
        while (i < n && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
            i++;
        }
        String op = null;
        if (i == pos && s.startsWith("&>>", i)) {
            op = "&>>";
        }
        else if (i == pos && s.startsWith("&>", i)) {
            op = "&>";
        }
        else {
            for (String r : REDIRECTS) {
                if (s.startsWith(r, i)) {
                    op = r;
                    break;
                }
            }
        }
        if (op == null || op.length() == 1 && i + 1 < n && s.charAt(i + 1) == '(') {
            return false;
        }
        String fd = s.substring(start, i);
        pos = i + op.length();
        while (pos < n && (s.charAt(pos) == ' ' || s.charAt(pos) == '\t')) {
            pos++;
        }
        Word target = pos < n && !endsWord(s.charAt(pos)) && s.charAt(pos) != '<' && s.charAt(pos) != '>' ? word(depth)
                : null;
        HereDocument doc = null;
        if (op.equals("<<") || op.equals("<<-")) {
            String raw = target == null ? "" : s.substring(target.start(), target.end());
            boolean quoted = raw.indexOf('\'') >= 0 || raw.indexOf('"') >= 0 || raw.indexOf('\\') >= 0;
            doc = new HereDocument(target == null ? "" : target.value(), quoted, op.equals("<<-"));
            if (target != null) {
                pending.add(doc);
            }
        }
        cmd.redirects.add(new Redirect(fd, op, target, doc, start, target == null ? i + op.length() : target.end()));
        return true;
    }

    private static boolean endsWord(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ';' || c == '&' || c == '|' || c == '('
                || c == ')';
    }

    /** The word at {@code pos}, or null when none starts there. */
    private Word word(int depth) {
        int start = pos;
        ShellText t = new ShellText();
        while (pos < n) {
            char c = s.charAt(pos);
            if (endsWord(c)) {
                break;
            }
            if (c == '<' || c == '>') {
                if (pos + 1 < n && s.charAt(pos + 1) == '(') {
                    substitution(t, depth, false);
                    continue;
                }
                break;
            }
            switch (c) {
                case '\\' -> backslash(t);
                case '\'' -> singleQuoted(t);
                case '"' -> doubleQuoted(t, depth);
                case '$' -> dollar(t, depth, false);
                case '`' -> backquoted(t);
                default -> {
                    t.add(c, pos, pos + 1, false);
                    pos++;
                }
            }
        }
        return pos > start ? new Word(t, start, pos) : null;
    }

    private void backslash(ShellText t) {
        if (pos + 1 >= n) {
            t.add('\\', pos, pos + 1, false);
            pos++;
        }
        else if (s.charAt(pos + 1) == '\n') {
            pos += 2;
        }
        else {
            t.add(s.charAt(pos + 1), pos, pos + 2, false);
            pos += 2;
        }
    }

    private void singleQuoted(ShellText t) {
        int close = s.indexOf('\'', pos + 1);
        int end = close < 0 ? n : close;
        t.addRaw(s, pos + 1, end, false);
        pos = close < 0 ? n : close + 1;
    }

    private void doubleQuoted(ShellText t, int depth) {
        pos++;
        while (pos < n) {
            char c = s.charAt(pos);
            if (c == '"') {
                pos++;
                return;
            }
            if (c == '\\' && pos + 1 < n) {
                char d = s.charAt(pos + 1);
                if (d == '\n') {
                    pos += 2;
                }
                else if (d == '$' || d == '`' || d == '"' || d == '\\') {
                    t.add(d, pos, pos + 2, false);
                    pos += 2;
                }
                else {
                    t.add(c, pos, pos + 1, false);
                    pos++;
                }
            }
            else if (c == '$') {
                dollar(t, depth, true);
            }
            else if (c == '`') {
                backquoted(t);
            }
            else {
                t.add(c, pos, pos + 1, false);
                pos++;
            }
        }
    }

    private void dollar(ShellText t, int depth, boolean inDoubleQuotes) {
        if (pos + 1 >= n) {
            t.add('$', pos, pos + 1, false);
            pos++;
            return;
        }
        char d = s.charAt(pos + 1);
        if (!inDoubleQuotes && d == '\'') {
            ansiC(t);
        }
        else if (!inDoubleQuotes && d == '"') {
            pos++;
            doubleQuoted(t, depth);
        }
        else if (d == '(' && pos + 2 < n && s.charAt(pos + 2) == '(') {
            int end = matching(pos + 1, n, '(', ')');
            t.addRaw(s, pos, end, true);
            pos = end;
        }
        else if (d == '(') {
            substitution(t, depth, true);
        }
        else if (d == '{') {
            int end = matching(pos + 1, n, '{', '}');
            t.addRaw(s, pos, end, true);
            pos = end;
        }
        else if (Character.isLetter(d) || d == '_') {
            int end = nameEnd(pos + 1, n);
            t.addRaw(s, pos, end, true);
            pos = end;
        }
        else if (SPECIAL_PARAMETERS.indexOf(d) >= 0) {
            t.addRaw(s, pos, pos + 2, true);
            pos += 2;
        }
        else {
            t.add('$', pos, pos + 1, false);
            pos++;
        }
    }

    private int nameEnd(int from, int limit) {
        int i = from;
        while (i < limit && (Character.isLetterOrDigit(s.charAt(i)) || s.charAt(i) == '_')) {
            i++;
        }
        return i;
    }

    /**
     * The index after the bracket that closes the one at {@code open}, or {@code limit}
     * when it is not closed.
     */
    private int matching(int open, int limit, char opening, char closing) {
        int level = 0;
        for (int i = open; i < limit; i++) {
            char c = s.charAt(i);
            if (c == '\\') {
                i++;
            }
            else if (c == opening) {
                level++;
            }
            else if (c == closing && --level == 0) {
                return i + 1;
            }
        }
        return limit;
    }

    /**
     * {@code $(…)} (when {@code command}) or a process substitution {@code <(…)} /
     * {@code >(…)} at {@code pos}: the inner text is parsed as a command list; only the
     * output of a lone {@code cat} of a here-document or here-string is taken as the
     * value, anything else is kept as written.
     */
    private void substitution(ShellText t, int depth, boolean command) {
        int start = pos;
        if (depth + 1 > MAX_DEPTH) {
            int end = matching(pos + 1, n, '(', ')');
            t.addRaw(s, start, end, true);
            pos = end;
            return;
        }
        pos += 2;
        List<ShellCommand> inner = list(depth + 1);
        if (pos < n && s.charAt(pos) == ')') {
            pos++;
        }
        ShellText output = command ? catOutput(inner) : null;
        if (output != null) {
            t.addAll(output);
        }
        else {
            t.addRaw(s, start, pos, true);
        }
    }

    private static ShellText catOutput(List<ShellCommand> inner) {
        if (inner.size() != 1) {
            return null;
        }
        ShellCommand cmd = inner.get(0);
        List<Word> words = cmd.words();
        boolean loneCat = words.size() == 1 || words.size() == 2 && words.get(1).value().equals("-");
        if (!loneCat || !words.get(0).value().equals("cat")) {
            return null;
        }
        ShellText in = cmd.stdin();
        return in == null ? null : in.withoutTrailingNewlines();
    }

    private void backquoted(ShellText t) {
        int i = pos + 1;
        while (i < n && s.charAt(i) != '`') {
            i += s.charAt(i) == '\\' ? 2 : 1;
        }
        int end = Math.min(n, i + 1);
        t.addRaw(s, pos, end, true);
        pos = end;
    }

    /** {@code $'…'} at {@code pos}. */
    private void ansiC(ShellText t) {
        int i = pos + 2;
        while (i < n) {
            char c = s.charAt(i);
            if (c == '\'') {
                pos = i + 1;
                return;
            }
            if (c != '\\' || i + 1 >= n) {
                t.add(c, i, i + 1, false);
                i++;
                continue;
            }
            int end = ansiEscape(t, i);
            i = end;
        }
        pos = n;
    }

    /**
     * Decodes the escape at {@code at} (a backslash) into {@code t}; returns the index
     * after it.
     */
    private int ansiEscape(ShellText t, int at) {
        char e = s.charAt(at + 1);
        int simple = switch (e) {
            case 'a' -> 7;
            case 'b' -> 8;
            case 'e', 'E' -> 27;
            case 'f' -> 12;
            case 'n' -> '\n';
            case 'r' -> '\r';
            case 't' -> '\t';
            case 'v' -> 11;
            case '\\', '\'', '"', '?' -> e;
            default -> -1;
        };
        if (simple >= 0) {
            t.add((char) simple, at, at + 2, false);
            return at + 2;
        }
        if (e == 'x' || e == 'u' || e == 'U') {
            int max = e == 'x' ? 2 : e == 'u' ? 4 : 8;
            int end = at + 2;
            while (end < n && end < at + 2 + max && Character.digit(s.charAt(end), 16) >= 0) {
                end++;
            }
            if (end == at + 2) {
                t.add('\\', at, at + 1, false);
                return at + 1;
            }
            long cp = Long.parseLong(s.substring(at + 2, end), 16);
            addCodePoint(t, cp <= Character.MAX_CODE_POINT ? (int) cp : 0xFFFD, at, end);
            return end;
        }
        if (e >= '0' && e <= '7') {
            int end = at + 1;
            while (end < n && end < at + 4 && s.charAt(end) >= '0' && s.charAt(end) <= '7') {
                end++;
            }
            t.add((char) (Integer.parseInt(s.substring(at + 1, end), 8) & 0xFF), at, end, false);
            return end;
        }
        if (e == 'c' && at + 2 < n) {
            t.add((char) (s.charAt(at + 2) & 0x1F), at, at + 3, false);
            return at + 3;
        }
        t.add('\\', at, at + 1, false);
        return at + 1;
    }

    private static void addCodePoint(ShellText t, int cp, int from, int to) {
        for (char c : Character.toChars(cp)) {
            t.add(c, from, to, false);
        }
    }

    /**
     * Reads the bodies of the here-documents announced on the line that just ended, in
     * order.
     */
    private void readHereDocuments(List<HereDocument> pending, int depth) {
        boolean closedSubstitution = false;
        for (HereDocument doc : pending) {
            int bodyStart = pos;
            ShellText body = new ShellText();
            int bodyEnd = -1;
            while (!closedSubstitution && pos < n) {
                int nl = s.indexOf('\n', pos);
                int lineEnd = nl < 0 ? n : nl;
                int contentStart = pos;
                while (doc.stripTabs() && contentStart < lineEnd && s.charAt(contentStart) == '\t') {
                    contentStart++;
                }
                int compareEnd = lineEnd > contentStart && s.charAt(lineEnd - 1) == '\r' ? lineEnd - 1 : lineEnd;
                String delimiter = doc.delimiter();
                if (s.substring(contentStart, compareEnd).equals(delimiter)) {
                    bodyEnd = pos;
                    pos = nl < 0 ? n : nl + 1;
                    break;
                }
                if (depth > 0 && !delimiter.isEmpty() && contentStart + delimiter.length() <= lineEnd
                        && s.startsWith(delimiter, contentStart)
                        && s.substring(contentStart + delimiter.length(), lineEnd).strip().startsWith(")")) {
                    bodyEnd = pos;
                    pos = contentStart + delimiter.length();
                    closedSubstitution = true;
                    break;
                }
                int next = nl < 0 ? n : nl + 1;
                if (doc.quoted()) {
                    body.addRaw(s, contentStart, next, false);
                }
                else {
                    unquotedBodyLine(body, contentStart, next);
                }
                pos = next;
            }
            doc.read(body, bodyStart, bodyEnd < 0 ? pos : bodyEnd);
        }
        pending.clear();
    }

    private void unquotedBodyLine(ShellText t, int from, int to) {
        int i = from;
        while (i < to) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < to) {
                char d = s.charAt(i + 1);
                if (d == '$' || d == '`' || d == '\\') {
                    t.add(d, i, i + 2, false);
                    i += 2;
                }
                else if (d == '\n') {
                    i += 2;
                }
                else {
                    t.add(c, i, i + 1, false);
                    i++;
                }
            }
            else if (c == '$' && i + 1 < to && (s.charAt(i + 1) == '(' || s.charAt(i + 1) == '{')) {
                char open = s.charAt(i + 1);
                int end = matching(i + 1, to, open, open == '(' ? ')' : '}');
                t.addRaw(s, i, end, true);
                i = end;
            }
            else if (c == '$' && i + 1 < to && (Character.isLetter(s.charAt(i + 1)) || s.charAt(i + 1) == '_')) {
                int end = nameEnd(i + 1, to);
                t.addRaw(s, i, end, true);
                i = end;
            }
            else if (c == '$' && i + 1 < to && SPECIAL_PARAMETERS.indexOf(s.charAt(i + 1)) >= 0) {
                t.addRaw(s, i, i + 2, true);
                i += 2;
            }
            else if (c == '`') {
                int end = i + 1;
                while (end < to && s.charAt(end) != '`') {
                    end++;
                }
                end = Math.min(to, end + 1);
                t.addRaw(s, i, end, true);
                i = end;
            }
            else {
                t.add(c, i, i + 1, false);
                i++;
            }
        }
    }

    /** The words and redirections of the command being read. */
    private static final class Builder {

        private final String separator;

        private final int separatorStart;

        private final List<Word> words = new ArrayList<>();

        private final List<Redirect> redirects = new ArrayList<>();

        Builder(String separator, int separatorStart) {
            this.separator = separator;
            this.separatorStart = separatorStart;
        }

        void finish(List<ShellCommand> out) {
            if (words.isEmpty() && redirects.isEmpty()) {
                return;
            }
            int start = Integer.MAX_VALUE;
            int end = 0;
            for (Word w : words) {
                start = Math.min(start, w.start());
                end = Math.max(end, w.end());
            }
            for (Redirect r : redirects) {
                start = Math.min(start, r.start());
                end = Math.max(end, r.end());
            }
            out.add(new ShellCommand(separator, separatorStart, words, redirects, start, end));
        }

    }

}

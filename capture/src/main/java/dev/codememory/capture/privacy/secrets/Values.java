package dev.codememory.capture.privacy.secrets;

import java.util.Locale;
import java.util.Set;

/**
 * What a value in a text is: where it starts and ends (quotes, blanks, separators, the
 * end of an unquoted value) and whether it is a literal secret or something that stands
 * for one (a placeholder, a marker, a reference, a template, a version, a label, a
 * sentence). Positions are indices into the text; ends are exclusive.
 */
final class Values {

    private Values() {
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Where a value is
    // ---------------------------------------------------------------------------------------------------------------

    /**
     * ASCII characters that end an unquoted value: whitespace, quotes and
     * {@code , ; & ) } ] < >}.
     */
    private static final boolean[] VALUE_END = new boolean[128];

    /**
     * ASCII characters of a type written after a name: letters, digits and
     * {@code _ [ ] *}.
     */
    private static final boolean[] TYPE_CHAR = new boolean[128];

    static {
        for (char c = 0; c < 128; c++) {
            VALUE_END[c] = Character.isWhitespace(c) || "\"'`,;&)}]<>".indexOf(c) >= 0;
            TYPE_CHAR[c] = Character.isLetterOrDigit(c) || "_[]*".indexOf(c) >= 0;
        }
    }

    static boolean isTypeChar(char c) {
        return c < 128 ? TYPE_CHAR[c] : Character.isLetterOrDigit(c);
    }

    /**
     * Length of a quote at {@code p}: 1 for {@code " ' `}, 2 for an escaped
     * {@code \" \'}, else 0.
     */
    static int quoteAt(String text, int p) {
        int n = text.length();
        if (p >= n) {
            return 0;
        }
        char c = text.charAt(p);
        if (c == '"' || c == '\'' || c == '`') {
            return 1;
        }
        if (c == '\\' && p + 1 < n && (text.charAt(p + 1) == '"' || text.charAt(p + 1) == '\'')) {
            return 2;
        }
        return 0;
    }

    static int skipBlanks(String text, int p) {
        int n = text.length();
        while (p < n && (text.charAt(p) == ' ' || text.charAt(p) == '\t')) {
            p++;
        }
        return p;
    }

    /** {@code = : := => ?= +=}, not {@code == :: =~}; 0 when there is none. */
    static int separatorLength(String text, int p) {
        int n = text.length();
        if (p >= n) {
            return 0;
        }
        char c = text.charAt(p);
        char next = p + 1 < n ? text.charAt(p + 1) : 0;
        if (c == ':') {
            if (next == '=') {
                return 2;
            }
            if (text.startsWith("::=", p)) {
                return 3; // Make's ::= and :::=
            }
            if (text.startsWith(":::=", p)) {
                return 4;
            }
            return next == ':' ? 0 : 1;
        }
        if (c == '=') {
            if (next == '>') {
                return 2;
            }
            return next == '=' || next == '~' ? 0 : 1;
        }
        if ((c == '?' || c == '+' || c == '.') && next == '=') {
            return 2;
        }
        return 0;
    }

    /**
     * An unquoted value runs to whitespace, a quote, or one of {@code , ; & ) } ] < >},
     * or an escape.
     */
    static int unquotedEnd(String text, int p) {
        int n = text.length();
        int e = p;
        boolean[] ends = VALUE_END;
        while (e < n) {
            char c = text.charAt(e);
            if (c < 128 ? ends[c] : Character.isWhitespace(c)) {
                break;
            }
            if (c == '\\' && e + 1 < n && "nrt\"'\\".indexOf(text.charAt(e + 1)) >= 0) {
                break;
            }
            e++;
        }
        return e;
    }

    static boolean isIdentifier(String v) {
        return isIdentifier(v, 0, v.length());
    }

    /**
     * Whether {@code v[start, end)} is an identifier: a letter or {@code _}, then
     * letters, digits and {@code _}.
     */
    private static boolean isIdentifier(String v, int start, int end) {
        if (end <= start || !(Character.isLetter(v.charAt(start)) || v.charAt(start) == '_')) {
            return false;
        }
        for (int k = start + 1; k < end; k++) {
            char c = v.charAt(k);
            if (!(Character.isLetterOrDigit(c) || c == '_')) {
                return false;
            }
        }
        return true;
    }

    static boolean isDottedIdentifier(String v) {
        int dot = v.indexOf('.');
        if (dot <= 0 || dot == v.length() - 1) {
            return false;
        }
        int start = 0;
        while (start <= v.length()) { // every part between dots an identifier (no split:
                                      // it allocates)
            int end = v.indexOf('.', start);
            end = end < 0 ? v.length() : end;
            if (!isIdentifier(v, start, end)) {
                return false;
            }
            start = end + 1;
        }
        char first = v.charAt(0);
        return Character.isLowerCase(first) || first == '_' || Character.isUpperCase(first);
    }

    // ---------------------------------------------------------------------------------------------------------------
    // What a value is
    // ---------------------------------------------------------------------------------------------------------------

    /**
     * A value that is neither a marker, a placeholder nor a reference to somewhere else.
     */
    static boolean isLiteralSecret(String text, int start, int end) {
        if (end <= start) {
            return false;
        }
        char c = text.charAt(start);
        if (c == '$' || c == '{' || c == '<' || c == '%' || c == '[') {
            return false;
        }
        return !isPlaceholder(text.substring(start, end));
    }

    /** Text that stands for a value rather than being one. */
    static boolean isPlaceholder(String v) {
        if (v.isEmpty() || v.equals(SecretRules.SECRET_MARKER) || v.equals(SecretRules.PRIVATE_MARKER)) {
            return true;
        }
        if (v.startsWith(SecretRules.SECRET_MARKER) || v.endsWith(SecretRules.SECRET_MARKER)) {
            return true;
        }
        if (v.startsWith("<") && v.endsWith(">") || v.startsWith("{") && v.endsWith("}")
                || v.startsWith("[") && v.endsWith("]")) {
            return true;
        }
        boolean filler = true; // (only X lower-cases to one of these)
        for (int k = 0; k < v.length() && filler; k++) {
            char ch = v.charAt(k);
            filler = ch == '*' || ch == 'x' || ch == 'X' || ch == '.' || ch == '•' || ch == '…' || ch == '-'
                    || ch == '#' || ch == '?';
        }
        if (filler) {
            return true;
        }
        if (v.length() > PLACEHOLDER_MAX_LENGTH && "yY<rRiIeEdD".indexOf(v.charAt(0)) < 0) {
            return false; // too long for the list, and no prefix below starts with its
                          // first character
        }
        String lower = v.toLowerCase(Locale.ROOT);
        return PLACEHOLDERS.contains(lower) || lower.startsWith("your_") || lower.startsWith("your-")
                || lower.startsWith("<your") || lower.startsWith("replace") || lower.startsWith("insert_")
                || lower.startsWith("example") || lower.startsWith("dummy") || lower.startsWith("redacted");
    }

    private static final Set<String> PLACEHOLDERS = Set.of("password", "passwd", "pass", "secret", "token", "apikey",
            "api_key", "api-key", "key", "credentials", "changeit", "changeme", "change-me", "change_me", "todo", "tbd",
            "fixme", "none", "null", "nil", "undefined", "true", "false", "n/a", "na", "...", "…", "value", "string",
            "xxx", "test", "your-password", "yourpassword", "mypassword", "my-password", "secret-value", "my-secret",
            "mysecret", "yoursecret", "your-secret", "yourtoken", "your-token", "sample", "hidden", "redacted",
            "masked", "empty");

    /**
     * The length of the longest of {@link #PLACEHOLDERS} (lower-casing never makes a
     * string shorter).
     */
    private static final int PLACEHOLDER_MAX_LENGTH = maxLength(PLACEHOLDERS);

    private static int maxLength(Set<String> words) {
        int max = 0;
        for (String w : words) {
            max = Math.max(max, w.length());
        }
        return max;
    }

    static boolean isTemplate(String text, int vs, int ve) {
        String v = text.substring(vs, ve);
        if (isVersion(v) || isRuleList(v) || isSentence(v)) {
            return true;
        }
        return v.contains("${") || v.contains("{{") || v.contains("#{") || v.contains("%(") || v.contains("%s")
                || (v.startsWith("{") && v.endsWith("}")) || v.startsWith("$") || v.startsWith("env:")
                || v.startsWith("vault:") || v.startsWith("secret:") || v.startsWith("op://");
    }

    /** Words that make a quoted value a label or a name rather than a secret. */
    private static final String[] LABEL_HINTS = { "password", "passwd", "secret", "token", "key", "credential", "auth",
            "pass" };

    /**
     * {@code "Forgot password?"}, {@code "DB_PASSWORD"}, {@code "password"}: a label or a
     * name.
     */
    static boolean isLabel(String text, int vs, int ve) {
        String v = text.substring(vs, ve);
        String lower = v.toLowerCase(Locale.ROOT);
        boolean digits = false;
        for (int k = 0; k < v.length(); k++) {
            digits |= Character.isDigit(v.charAt(k));
        }
        for (String hint : LABEL_HINTS) {
            if (!lower.contains(hint)) {
                continue;
            }
            if (v.indexOf(' ') >= 0 || lower.equals(hint)
                    || (!digits && isIdentifier(v) && (v.indexOf('_') >= 0 || !lower.equals(v)))) {
                return true;
            }
        }
        return v.indexOf(' ') >= 0 && v.endsWith("?");
    }

    static boolean mentionsSecret(String lower, String v) {
        for (String hint : LABEL_HINTS) {
            if (lower.contains(hint) && (lower.equals(hint) || v.indexOf('_') >= 0 || !lower.equals(v)
                    || lower.length() <= hint.length() + 4)) {
                return true;
            }
        }
        return false;
    }

    /**
     * At least 16 characters, letters and digits, about 3 bits of entropy per character
     * or more.
     */
    static boolean isRandomLooking(String text, int vs, int ve) {
        if (ve - vs < 16 || ve - vs > 4096) {
            return false;
        }
        boolean letter = false;
        boolean digit = false;
        int[] counts = new int[128];
        for (int k = vs; k < ve; k++) {
            char c = text.charAt(k);
            if (c >= 128 || Character.isWhitespace(c)) {
                return false;
            }
            letter |= Character.isLetter(c);
            digit |= Character.isDigit(c);
            counts[c]++;
        }
        if (!letter || !digit) {
            return false;
        }
        double entropy = 0;
        int len = ve - vs;
        for (int count : counts) {
            if (count > 0) {
                double f = (double) count / len;
                entropy -= f * (Math.log(f) / Math.log(2));
            }
        }
        return entropy >= 3.0;
    }

    /**
     * Compiled on first need: most texts never get this far, and a hook process pays for
     * every compile.
     */
    private static final class Patterns {

        /** {@code required|string|min:8}: a validation rule list. */
        static final LazyPattern RULE_LIST = new LazyPattern(
                "[a-z_]{2,20}(?::[^|\\s]{0,30})?(?:\\|[a-z_]{2,20}(?::[^|\\s]{0,30})?)+");
        static final LazyPattern VERSION = new LazyPattern(
                "[~^<>=]{0,2}v?\\d{1,4}(?:\\.[0-9x*]{1,6}){1,3}(?:-[A-Za-z0-9.]{1,20})?");

    }

    /** {@code required|string|min:8}: a validation rule list (which has a {@code |}). */
    private static boolean isRuleList(String v) {
        return v.indexOf('|') > 0 && Patterns.RULE_LIST.get().matcher(v).matches();
    }

    /** {@code ^9.0.2}, {@code 1.2.3-rc.1}: a version, not a secret. */
    static boolean isVersion(String v) {
        if (v.length() > 40 || v.indexOf('.') < 0) {
            return false;
        }
        // what the pattern needs before its first digit: up to two of ~^<>= and an
        // optional v
        int p = 0;
        while (p < 2 && p < v.length() && "~^<>=".indexOf(v.charAt(p)) >= 0) {
            p++;
        }
        if (p < v.length() && v.charAt(p) == 'v') {
            p++;
        }
        return p < v.length() && v.charAt(p) >= '0' && v.charAt(p) <= '9'
                && Patterns.VERSION.get().matcher(v).matches();
    }

    /** A message: three or more words ending in sentence punctuation. */
    private static boolean isSentence(String v) {
        int spaces = 0;
        for (int k = 0; k < v.length(); k++) {
            spaces += v.charAt(k) == ' ' ? 1 : 0;
        }
        char last = v.isEmpty() ? 0 : v.charAt(v.length() - 1);
        return spaces >= 2 && (last == '.' || last == '!' || last == '?' || last == ':');
    }

    static final Set<String> KEYWORDS = Set.of("null", "none", "nil", "undefined", "true", "false", "yes", "no", "on",
            "off", "self", "this", "new", "await", "async", "lambda", "function", "fn", "return", "if", "not", "and",
            "or", "str", "string", "int", "integer", "bool", "boolean", "bytes", "byte", "number", "any", "unknown",
            "object", "float", "double", "char", "void", "required", "optional", "secretstr", "secretbytes", "var",
            "let", "const", "val", "def", "of", "in", "is", "as", "typeof", "type", "default", "env", "string[]",
            "list", "dict", "map", "set", "tuple", "array", "option", "result", "vec", "box", "rc", "arc", "u8", "i32",
            "i64", "u32", "u64", "usize", "long", "short", "text", "varchar", "blob", "uuid", "date", "json", "jsonb",
            "binary", "nullable", "empty", "omit", "hidden", "masked", "redacted", "sensitive", "inherit", "auto",
            "static", "final", "private", "public", "protected", "readonly", "mut", "ref", "read", "write", "readwrite",
            "none_", "disabled", "enabled", "required_");

}

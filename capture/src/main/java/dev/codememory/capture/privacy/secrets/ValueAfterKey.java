package dev.codememory.capture.privacy.secrets;

import static dev.codememory.capture.privacy.secrets.Values.KEYWORDS;
import static dev.codememory.capture.privacy.secrets.Values.isDottedIdentifier;
import static dev.codememory.capture.privacy.secrets.Values.isIdentifier;
import static dev.codememory.capture.privacy.secrets.Values.isLabel;
import static dev.codememory.capture.privacy.secrets.Values.isLiteralSecret;
import static dev.codememory.capture.privacy.secrets.Values.isPlaceholder;
import static dev.codememory.capture.privacy.secrets.Values.isRandomLooking;
import static dev.codememory.capture.privacy.secrets.Values.isTemplate;
import static dev.codememory.capture.privacy.secrets.Values.isTypeChar;
import static dev.codememory.capture.privacy.secrets.Values.isVersion;
import static dev.codememory.capture.privacy.secrets.Values.mentionsSecret;
import static dev.codememory.capture.privacy.secrets.Values.quoteAt;
import static dev.codememory.capture.privacy.secrets.Values.separatorLength;
import static dev.codememory.capture.privacy.secrets.Values.skipBlanks;
import static dev.codememory.capture.privacy.secrets.Values.unquotedEnd;

import java.util.Locale;

/** One secret-named key in a text and what follows it. */
final class ValueAfterKey {

    private final String text;

    private final Spans spans;

    private final KeyClass keyClass;

    private final int keyStart;

    private final int nameStart;

    private final int nameEnd;

    private final boolean commandFlag;

    private final int length;

    private boolean spacedSeparator;

    private int separatorEnd;

    ValueAfterKey(String text, Spans spans, KeyClass keyClass, int keyStart, int nameStart, int nameEnd,
            boolean commandFlag) {
        this.text = text;
        this.spans = spans;
        this.keyClass = keyClass;
        this.keyStart = keyStart;
        this.nameStart = nameStart;
        this.nameEnd = nameEnd;
        this.commandFlag = commandFlag;
        this.length = text.length();
    }

    void mask() {
        int p = nameEnd;
        // the key's closing quote: " ' ` or an escaped \" \' (JSON inside a JSON
        // string)
        int quoteLen = quoteAt(text, p);
        boolean quotedKey = quoteLen > 0;
        p += quoteLen;
        // each special form is tried only when the character that starts it is there
        char at = p < length ? text.charAt(p) : 0;
        char before = keyStart > 0 ? text.charAt(keyStart - 1) : 0;
        if (keyClass == KeyClass.STRONG) {
            if (quotedKey && (before == '"' || before == '\'' || before == '\\') && callArgumentDefault(p)) {
                return;
            }
            if (before == '{' && shellDefault()) {
                return;
            }
            if ((at == ')' || at == ']' || at == ' ' || at == '\t' || at == '|' || at == '?' || at == 'o')
                    && fallbackDefault(p)) {
                return;
            }
            if (!quotedKey && at == '(' && setterCall(p)) {
                return;
            }
            if (!quotedKey && at == '>' && before == '<' && xmlElement(p)) {
                return;
            }
        }
        if (at == ']' || at == '?' || at == '!') {
            p++; // TypeScript optional or definite marks, a closing index bracket
        }
        p = skipBlanks(text, p);
        char c = p < length ? text.charAt(p) : 0;
        int sep = c == ':' || c == '=' || c == '?' || c == '+' || c == '.' ? separatorLength(text, p) : 0;
        if (sep == 0) {
            if (keyClass == KeyClass.STRONG && !(isTypeChar(c) && typedDeclaration(p)) && !(c == ',' && csvValue(p))
                    && p != nameEnd && p < length) {
                spaceSeparated(p);
            }
            return;
        }
        boolean colon = text.charAt(p) == ':' && sep == 1;
        boolean spacedBefore = p > nameEnd + quoteLen && text.charAt(p - 1) == ' ';
        int valueStart = skipBlanks(text, p + sep);
        spacedSeparator = spacedBefore && valueStart > p + sep;
        separatorEnd = p + sep;
        value(valueStart, colon);
    }

    /**
     * {@code <dbPassword>hunter2</dbPassword>}, also with the value on lines of its own.
     */
    private boolean xmlElement(int p) {
        if (keyStart == 0 || text.charAt(keyStart - 1) != '<' || p >= length || text.charAt(p) != '>') {
            return false;
        }
        int close = text.indexOf("</", p + 1);
        if (close < 0 || close - p > 4096) {
            return true;
        }
        int vs = p + 1;
        int ve = close;
        while (vs < ve && Character.isWhitespace(text.charAt(vs))) {
            vs++;
        }
        while (ve > vs && Character.isWhitespace(text.charAt(ve - 1))) {
            ve--;
        }
        if (ve > vs && text.indexOf('<', vs) >= ve && isLiteralSecret(text, vs, ve) && !isTemplate(text, vs, ve)) {
            spans.add(vs, ve);
        }
        return true;
    }

    /**
     * {@code var apiToken string = "…"}, {@code String apiToken = "…"} written after the
     * name.
     */
    private boolean typedDeclaration(int p) {
        int t = p;
        while (t < length && isTypeChar(text.charAt(t))) {
            t++;
        }
        if (t == p || t - p > 40) {
            return false;
        }
        int e = skipBlanks(text, t);
        if (e >= length || text.charAt(e) != '=' || (e + 1 < length && text.charAt(e + 1) == '=')) {
            return false;
        }
        return quotedValue(skipBlanks(text, e + 1));
    }

    /** {@code apiToken,8f1c…,} as in a CSV row: only a value that looks random. */
    private boolean csvValue(int p) {
        if (p >= length || text.charAt(p) != ',') {
            return false;
        }
        int vs = skipBlanks(text, p + 1);
        int ql = quoteAt(text, vs);
        int start = vs + ql;
        int end = start;
        while (end < length && !Character.isWhitespace(text.charAt(end)) && text.charAt(end) != ','
                && text.charAt(end) != '"' && text.charAt(end) != '\'' && text.charAt(end) != ')') {
            end++;
        }
        if (isRandomLooking(text, start, end)) {
            spans.add(start, end);
            return true;
        }
        return false;
    }

    /**
     * {@code api_token: |} then the value on the next, indented line (YAML block
     * scalars).
     */
    private boolean blockScalar(int p) {
        if (p >= length || (text.charAt(p) != '|' && text.charAt(p) != '>')) {
            return false;
        }
        int q = p + 1;
        while (q < length && (text.charAt(q) == '-' || text.charAt(q) == '+' || Character.isDigit(text.charAt(q)))) {
            q++;
        }
        q = skipBlanks(text, q);
        if (q >= length || (text.charAt(q) != '\n' && text.charAt(q) != '\r')) {
            return false;
        }
        int lineStart = text.indexOf('\n', q) + 1;
        if (lineStart <= 0 || lineStart >= length) {
            return true;
        }
        int vs = skipBlanks(text, lineStart);
        if (vs == lineStart) {
            return true; // not indented: the block is empty
        }
        int ve = text.indexOf('\n', vs);
        ve = ve < 0 ? length : ve;
        while (ve > vs && Character.isWhitespace(text.charAt(ve - 1))) {
            ve--;
        }
        if (isLiteralSecret(text, vs, ve)) {
            spans.add(vs, ve);
        }
        return true;
    }

    /**
     * {@code getenv("DB_PASSWORD", "default")}, {@code define('DB_PASSWORD', 'x')}: the
     * second argument.
     */
    private boolean callArgumentDefault(int p) {
        int open = keyStart - 1;
        if (open >= 0 && text.charAt(open) == '\\') {
            open--;
        }
        int q = open;
        if (q < 0 || (text.charAt(q) != '"' && text.charAt(q) != '\'')) {
            return false;
        }
        q--;
        if (q >= 0 && text.charAt(q) == '\\') {
            q--;
        }
        while (q >= 0 && (text.charAt(q) == ' ' || text.charAt(q) == '\t')) {
            q--;
        }
        if (q < 0) {
            return false;
        }
        if (text.charAt(q) == ',') {
            // config.get("database", "password", fallback="…"): only with a default
            // keyword
            int c = skipBlanks(text, p);
            return c < length && text.charAt(c) == ','
                    && skipDefaultKeyword(skipBlanks(text, c + 1)) != skipBlanks(text, c + 1)
                    && quotedValue(skipDefaultKeyword(skipBlanks(text, c + 1)));
        }
        if (text.charAt(q) != '(') {
            return false;
        }
        int c = skipBlanks(text, p);
        if (c >= length || text.charAt(c) != ',') {
            return false;
        }
        return quotedValue(skipDefaultKeyword(skipBlanks(text, c + 1)));
    }

    /**
     * Skips {@code default=}, {@code fallback=}, {@code defaultValue:} before a default
     * argument.
     */
    private int skipDefaultKeyword(int p) {
        for (String kw : new String[] { "default=", "fallback=", "default_value=", "defaultValue=", "default:" }) {
            if (text.startsWith(kw, p)) {
                return skipBlanks(text, p + kw.length());
            }
        }
        return p;
    }

    /**
     * {@code ${DB_PASSWORD:-default}}, {@code ${DB_PASSWORD:default}} (Spring): the
     * default.
     */
    private boolean shellDefault() {
        if (nameStart < 2 || text.charAt(nameStart - 1) != '{' || text.charAt(nameStart - 2) != '$') {
            return false;
        }
        int p = nameEnd;
        if (p >= length) {
            return false;
        }
        if (text.startsWith(":?", p) || text.charAt(p) == '?') {
            return true; // ${VAR:?message}: the message, not a default
        }
        if (text.startsWith(":-", p) || text.startsWith(":=", p)) {
            p += 2;
        }
        else if (text.charAt(p) == ':' || text.charAt(p) == '-' || text.charAt(p) == '=') {
            p++;
        }
        else {
            return false;
        }
        int close = text.indexOf('}', p);
        int nl = text.indexOf('\n', p);
        if (close < 0 || (nl >= 0 && nl < close) || close - p > 512) {
            return true;
        }
        int vs = p;
        int ve = close;
        if (ve > vs && (text.charAt(vs) == '"' || text.charAt(vs) == '\'') && text.charAt(ve - 1) == text.charAt(vs)) {
            vs++;
            ve--;
        }
        if (isLiteralSecret(text, vs, ve)) {
            spans.add(vs, ve);
        }
        return true;
    }

    /**
     * {@code process.env.API_TOKEN || "x"}, {@code os.getenv("X_PASSWORD") or "x"},
     * {@code ?? "x"}.
     */
    private boolean fallbackDefault(int p) {
        int q = p;
        while (q < length && (text.charAt(q) == ')' || text.charAt(q) == ']')) {
            q++;
        }
        q = skipBlanks(text, q);
        int op;
        if (text.startsWith("||", q) || text.startsWith("??", q) || text.startsWith("?:", q)) {
            op = 2;
        }
        else if (text.startsWith("or ", q)) {
            op = 3;
        }
        else {
            return false;
        }
        return quotedValue(skipBlanks(text, q + op));
    }

    /**
     * {@code setPassword("x")}, {@code .password("x")}, {@code withToken("x")}: the
     * literal argument.
     */
    private boolean setterCall(int p) {
        if (p >= length || text.charAt(p) != '(') {
            return false;
        }
        int segmentStart = text.lastIndexOf('.', nameEnd - 1) + 1;
        segmentStart = Math.max(segmentStart, nameStart);
        String[] parts = SecretNames.parts(text.substring(segmentStart, nameEnd));
        String first = parts.length == 0 ? "" : parts[0];
        boolean setter = (first.equals("set") || first.equals("with")
                || (parts.length == 1 && segmentStart > 0 && text.charAt(segmentStart - 1) == '.'))
                && SecretNames.classify(text.substring(segmentStart, nameEnd)) == KeyClass.STRONG;
        if (!setter) {
            return false;
        }
        return quotedValue(skipBlanks(text, p + 1));
    }

    /** {@code --password hunter2}; {@code machine h login u password p} (.netrc). */
    private void spaceSeparated(int p) {
        if (p == nameEnd || p >= length) {
            return;
        }
        if (!commandFlag) {
            boolean netrc = (isName("password") || isName("passwd")) && onLineBefore("machine ", "login ");
            if (!netrc) {
                int end = unquotedEnd(text, p);
                if (Ascii.isAlnum(text.charAt(p)) && isRandomLooking(text, p, end)) {
                    spans.add(p, end); // aws configure set aws_secret_access_key
                                       // 8f1c…
                }
                return;
            }
        }
        char c = text.charAt(p);
        if (c == '-' || c == '\n' || c == '\r') {
            return;
        }
        if (!quotedValue(p)) {
            int end = unquotedEnd(text, p);
            if (isLiteralSecret(text, p, end)) {
                spans.add(p, end);
            }
        }
    }

    /** Whether the key's name is {@code lowerName} in any case (a name is ASCII). */
    private boolean isName(String lowerName) {
        return nameEnd - nameStart == lowerName.length()
                && text.regionMatches(true, nameStart, lowerName, 0, lowerName.length());
    }

    private boolean onLineBefore(String... words) {
        int lineStart = text.lastIndexOf('\n', keyStart) + 1;
        String line = text.substring(lineStart, keyStart);
        for (String w : words) {
            if (line.contains(w)) {
                return true;
            }
        }
        return false;
    }

    /** The value after the separator. */
    private void value(int p, boolean colon) {
        if (p >= length) {
            return;
        }
        char c = text.charAt(p);
        if ((c == '"' || c == '\'' || c == '`' || c == '\\') && quotedValue(p)) {
            return;
        }
        if (c == '\n' || c == '\r') {
            return;
        }
        if (keyClass == KeyClass.STRONG && colon && (c == '|' || c == '>') && blockScalar(p)) {
            return;
        }
        int end = unquotedEnd(text, p);
        if (end <= p) {
            return;
        }
        if (keyClass == KeyClass.AUTHORIZATION) {
            AuthorizationValues.maskHeaderValue(text, p, end, spans);
            return;
        }
        if (keyClass == KeyClass.WEAK) {
            if (isRandomLooking(text, p, end)) {
                spans.add(p, end);
            }
            return;
        }
        if (isCode(p, end, colon)) {
            typedThenAssigned(end);
            return;
        }
        if (isCredentialsKey() && maskAfterUser(p, end)) {
            return;
        }
        spans.add(p, end);
    }

    /** {@code password: str = "hunter2"}: a type annotation, then a literal. */
    private void typedThenAssigned(int end) {
        int q = skipBlanks(text, end);
        if (q < length && text.charAt(q) == '=' && (q + 1 >= length || text.charAt(q + 1) != '=')) {
            quotedValue(skipBlanks(text, q + 1));
        }
    }

    private boolean isCredentialsKey() {
        if (!Ascii.containsIgnoreCase(text, nameStart, nameEnd, "cred")) {
            return false; // no part of the name can start with it
        }
        String[] parts = SecretNames.parts(text.substring(nameStart, nameEnd));
        String last = parts.length == 0 ? "" : parts[parts.length - 1];
        return last.startsWith("cred");
    }

    /** {@code Credentials: neo4j/the-password}: the user stays. */
    private boolean maskAfterUser(int p, int end) {
        for (int k = p + 1; k < end - 1; k++) {
            char c = text.charAt(k);
            if (c == '/' || c == ':') {
                spans.add(k + 1, end);
                return true;
            }
        }
        return false;
    }

    /**
     * A quoted value at {@code p} (also with escaped quotes, {@code \"…\"}): masks its
     * content when it is a literal secret. Returns whether there was a quoted value
     * (masked or not).
     */
    private boolean quotedValue(int p) {
        int ql = quoteAt(text, p);
        if (ql == 0) {
            return false;
        }
        boolean escaped = ql == 2;
        char quote = text.charAt(p + ql - 1);
        int vs = p + ql;
        int ve = vs;
        while (ve < length) {
            char c = text.charAt(ve);
            if (c == '\n' || c == '\r') {
                return true; // unterminated on this line: nothing certain to mask
            }
            if (escaped) {
                if (c == '\\' && ve + 1 < length && text.charAt(ve + 1) == quote) {
                    break;
                }
                if (c == '\\' && ve + 1 < length && text.charAt(ve + 1) == '\\') {
                    ve += 2;
                    continue;
                }
            }
            else {
                if (c == '\\' && ve + 1 < length && text.charAt(ve + 1) != '\n') {
                    ve += 2;
                    continue;
                }
                if (c == quote) {
                    break;
                }
            }
            ve++;
        }
        if (ve >= length || ve == vs || ve - vs > 4096) {
            return true;
        }
        if (keyClass == KeyClass.AUTHORIZATION) {
            AuthorizationValues.maskHeaderValue(text, vs, unquotedEnd(text, vs), spans);
            return true;
        }
        if (keyClass == KeyClass.WEAK) {
            if (isRandomLooking(text, vs, ve)) {
                spans.add(vs, ve);
            }
            return true;
        }
        if (!isLiteralSecret(text, vs, ve) || isTemplate(text, vs, ve) || isLabel(text, vs, ve)) {
            return true;
        }
        if (quote == '`' && text.indexOf("${", vs) >= 0 && text.indexOf("${", vs) < ve) {
            return true;
        }
        spans.add(vs, ve);
        return true;
    }

    /**
     * Whether an unquoted value is code rather than a literal: a call, an index, a member
     * access, a keyword or a type, a reference to a variable named like the secret, a
     * path, a placeholder, a marker, or (after a colon) the first word of a sentence.
     */
    private boolean isCode(int p, int end, boolean colon) {
        char c = text.charAt(p);
        if ("$%{[(<=!&*@#\\|+".indexOf(c) >= 0 || (c == '-' && (p + 1 >= end || text.charAt(p + 1) == '>'))) {
            return true;
        }
        String v = text.substring(p, end);
        while (v.length() > 1 && (v.endsWith("!") || v.endsWith("?"))) {
            v = v.substring(0, v.length() - 1); // TypeScript's non-null x!, Kotlin's
                                                // String?
        }
        if (isPlaceholder(v) || isVersion(v) || v.startsWith("/") || v.startsWith("./") || v.startsWith("~/")
                || v.startsWith("../")) {
            return true;
        }
        if (v.indexOf('(') >= 0 || v.indexOf('[') >= 0 || v.contains("::") || v.contains("->") || v.contains("{{")
                || v.contains("${")) {
            return true;
        }
        if (isDottedIdentifier(v)) {
            return true;
        }
        if (!isIdentifier(v)) {
            return false;
        }
        String lower = v.toLowerCase(Locale.ROOT);
        if (KEYWORDS.contains(lower)) {
            return true;
        }
        boolean digits = false;
        for (int k = 0; k < v.length(); k++) {
            digits |= Character.isDigit(v.charAt(k));
        }
        if (!digits && mentionsSecret(lower, v)) {
            return true; // password=password, token: authToken, secret =
                         // client_secret
        }
        if (literalContext()) {
            return false;
        }
        if (colon && !digits && Character.isUpperCase(v.charAt(0))) {
            return true; // token: Token, password: String
        }
        int after = skipBlanks(text, end);
        if (colon && !digits && after == end && p == separatorEnd && end < length
                && (text.charAt(end) == '"' || text.charAt(end) == '\'')) {
            return true; // "token:rotate", scope "secret:read": a name with a colon
                         // in it
        }
        if (after < length && text.charAt(after) == '=' && (after + 1 >= length || text.charAt(after + 1) != '=')) {
            return true; // userid = passwd = acct = '': a chained assignment
        }
        boolean nameLike = v.length() < 20 || v.indexOf('_') >= 0 || v.equals(v.toLowerCase(Locale.ROOT));
        if (!digits && nameLike && after < length && ",);}]".indexOf(text.charAt(after)) >= 0) {
            return true; // connect(user=user, password=pw), { token: tok }
        }
        if (!digits && nameLike && spacedSeparator
                && (after >= length || text.charAt(after) == '\n' || text.charAt(after) == '\r')) {
            return true; // password = pw (a variable); .env and properties files
                         // write PASSWORD=hunter
        }
        if (colon && !digits && after < length && after > end && Character.isLetter(text.charAt(after))) {
            return true; // "Password: must be eight characters or more"
        }
        return false;
    }

    /**
     * A key right after {@code ; ? &} or a line start of a key=value file is in data,
     * never code.
     */
    private boolean literalContext() {
        int q = keyStart - 1;
        while (q >= 0 && (text.charAt(q) == ' ' || text.charAt(q) == '\t')) {
            q--;
        }
        if (q >= 0 && (text.charAt(q) == ';' || text.charAt(q) == '?' || text.charAt(q) == '&')) {
            return true;
        }
        return false;
    }

}

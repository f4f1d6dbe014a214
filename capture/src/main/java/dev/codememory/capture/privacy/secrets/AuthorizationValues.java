package dev.codememory.capture.privacy.secrets;

import java.util.regex.Pattern;

/**
 * Rule 4 of {@link SecretRules}: the credential after {@code Bearer} or {@code Basic}
 * when it looks like one (a digit or mixed case), so "bearer authentication" in prose
 * stays.
 */
final class AuthorizationValues {

    private AuthorizationValues() {
    }

    /**
     * The rule's patterns, in a holder of their own: a text without a trigger of the rule
     * loads neither them nor {@link LazyPattern}, and each compiles on first use.
     */
    private static final class Patterns {

        static final LazyPattern BEARER = new LazyPattern("(?<![A-Za-z0-9])bearer[ \\t]+([A-Za-z0-9._~+/=-]{8,}+)",
                Pattern.CASE_INSENSITIVE);
        static final LazyPattern BASIC = new LazyPattern("(?<![A-Za-z0-9])basic[ \\t]+([A-Za-z0-9+/]{8,}+={0,2})",
                Pattern.CASE_INSENSITIVE);

    }

    /** Adds the span of every credential after {@code Bearer} or {@code Basic}. */
    static void mask(String text, String latin, byte[] view, Spans spans) {
        Starts bearer = new Starts();
        Starts basic = new Starts();
        authorizationWords(latin, view, 'b', bearer, basic);
        authorizationWords(latin, view, 'B', bearer, basic);
        if (!bearer.isEmpty()) {
            credentials(new AnchoredFind(Patterns.BEARER, text, bearer), text, spans);
        }
        if (!basic.isEmpty()) {
            credentials(new AnchoredFind(Patterns.BASIC, text, basic), text, spans);
        }
    }

    /**
     * The value of an {@code Authorization} key ({@link KeyClass#AUTHORIZATION}) that
     * starts at {@code p}, whose first word ends at {@code end}: in
     * {@code Authorization: Bearer x} the part after the scheme word; a bare credential
     * whole.
     */
    static void maskHeaderValue(String text, int p, int end, Spans spans) {
        int length = text.length();
        int lineEnd = p;
        while (lineEnd < length && text.charAt(lineEnd) != '\n' && text.charAt(lineEnd) != '\r'
                && text.charAt(lineEnd) != '"' && text.charAt(lineEnd) != '\'' && text.charAt(lineEnd) != '\\') {
            lineEnd++;
        }
        int credStart = p;
        if (end < lineEnd && text.charAt(end) == ' ') {
            credStart = Values.skipBlanks(text, end);
        }
        int credEnd = credStart;
        while (credEnd < lineEnd && !Character.isWhitespace(text.charAt(credEnd))) {
            credEnd++;
        }
        if (credEnd > credStart && text.charAt(credStart) != '$' && text.charAt(credStart) != '{'
                && text.charAt(credStart) != '<' && looksLikeCredential(text, credStart, credEnd)) {
            spans.add(credStart, credEnd);
        }
    }

    /**
     * Where {@code bearer} and {@code basic} begin, in any ASCII case, at a {@code first}
     * (b or B): led by {@link String#indexOf(int, int)}, which a fresh JVM has compiled
     * already, where a loop of its own would be interpreted.
     */
    private static void authorizationWords(String latin, byte[] view, char first, Starts bearer, Starts basic) {
        for (int i = latin.indexOf(first); i >= 0; i = latin.indexOf(first, i + 1)) {
            if (Ascii.startsWithIgnoreCase(view, i, "bearer")) {
                bearer.add(i);
            }
            else if (Ascii.startsWithIgnoreCase(view, i, "basic")) {
                basic.add(i);
            }
        }
    }

    private static void credentials(AnchoredFind m, String text, Spans spans) {
        while (m.find()) {
            if (looksLikeCredential(text, m.start(1), m.end(1))) {
                spans.add(m.start(1), m.end(1));
            }
        }
    }

    /**
     * At least 8 characters with a digit, or with both upper and lower case: not an
     * English word.
     */
    private static boolean looksLikeCredential(String text, int start, int end) {
        if (end - start < 8) {
            return false;
        }
        boolean digit = false;
        boolean upper = false;
        boolean lower = false;
        for (int i = start; i < end; i++) {
            char c = text.charAt(i);
            digit |= c >= '0' && c <= '9';
            upper |= c >= 'A' && c <= 'Z';
            lower |= c >= 'a' && c <= 'z';
        }
        return digit || (upper && lower && !isCapitalizedWord(text, start, end));
    }

    private static boolean isCapitalizedWord(String text, int start, int end) {
        if (!Character.isUpperCase(text.charAt(start))) {
            return false;
        }
        for (int i = start + 1; i < end; i++) {
            if (!Character.isLowerCase(text.charAt(i))) {
                return false;
            }
        }
        return true;
    }

}

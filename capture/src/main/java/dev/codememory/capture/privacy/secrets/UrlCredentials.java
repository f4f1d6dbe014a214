package dev.codememory.capture.privacy.secrets;

import java.util.regex.Matcher;

/**
 * Rule 3 of {@link SecretRules}: credentials in URLs and DSNs, the password of
 * {@code scheme://user:password@host} and of Go's {@code user:password@tcp(host)}.
 */
final class UrlCredentials {

    private UrlCredentials() {
    }

    /**
     * The rule's patterns, in a holder of their own: a text without a trigger of the rule
     * loads neither them nor {@link LazyPattern}, and each compiles on first use.
     */
    private static final class Patterns {

        /** Go's MySQL DSN {@code user:password@tcp(host)}: group 1 is the password. */
        static final LazyPattern GO_DSN = new LazyPattern(
                "(?<![A-Za-z0-9_./-])[A-Za-z0-9_.-]{1,64}:([^\\s@/:\"']{1,128}+)@(?:tcp|unix)\\(");

    }

    /** Adds the span of every literal password in a URL or a Go DSN. */
    static void mask(String text, String latin, Spans spans) {
        int n = text.length();
        for (int at = latin.indexOf("://"); at >= 0; at = latin.indexOf("://", at + 3)) {
            int scheme = at;
            while (scheme > 0 && at - scheme < 30 && isSchemeChar(text.charAt(scheme - 1))) {
                scheme--;
            }
            if (scheme == at || !Character.isLetter(text.charAt(scheme))) {
                continue;
            }
            // userinfo: up to '@', before any character that ends the authority
            int colon = -1;
            int p = at + 3;
            int limit = Math.min(n, p + 768);
            while (p < limit) {
                char c = text.charAt(p);
                if (c == '@' || c == '/' || c == '?' || c == '#' || c == '"' || c == '\'' || c == '<' || c == '>'
                        || c == '\\' || Character.isWhitespace(c)) {
                    break;
                }
                if (c == ':' && colon < 0) {
                    colon = p;
                }
                p++;
            }
            if (p < n && text.charAt(p) == '@' && colon >= 0 && Values.isLiteralSecret(text, colon + 1, p)) {
                // Sidekiq's gem servers take the licence key as the user: both halves go
                spans.add(licensedHost(latin, p + 1) ? at + 3 : colon + 1, p);
            }
        }
        if (latin.contains("@tcp(") || latin.contains("@unix(")) {
            Matcher m = Patterns.GO_DSN.get().matcher(text);
            while (m.find()) {
                if (Values.isLiteralSecret(text, m.start(1), m.end(1))) {
                    spans.add(m.start(1), m.end(1));
                }
            }
        }
    }

    /**
     * Whether the host at {@code from} takes a credential as its user name (Sidekiq
     * Pro/Enterprise's {@code gems.contribsys.com}, {@code enterprise.contribsys.com}).
     */
    private static boolean licensedHost(String latin, int from) {
        int end = from;
        while (end < latin.length()
                && (Ascii.isAlnum(latin.charAt(end)) || latin.charAt(end) == '.' || latin.charAt(end) == '-')) {
            end++;
        }
        return latin.substring(from, end).endsWith("contribsys.com");
    }

    private static boolean isSchemeChar(char c) {
        return Ascii.isAlnum(c) || c == '+' || c == '.' || c == '-';
    }

}

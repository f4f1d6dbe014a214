package dev.codememory.capture.privacy.secrets;

/**
 * Rule 6 of {@link SecretRules}: passwords on command lines,
 * {@code curl -u user:password}, {@code mysql -p…}, {@code sshpass -p …},
 * {@code docker login -p …}.
 */
final class CommandLines {

    private CommandLines() {
    }

    /**
     * The rule's patterns, in a holder of their own: a text without a trigger of the rule
     * loads neither them nor {@link LazyPattern}, and each compiles on first use.
     */
    private static final class Patterns {

        static final LazyPattern CURL_USER = new LazyPattern(
                "(?<![A-Za-z0-9_-])(?:-u|--user)[ \\t]+['\"]?[^\\s:'\"]{0,128}:([^\\s'\"]{1,256}+)");
        static final LazyPattern MYSQL_P = new LazyPattern("(?<![A-Za-z0-9_-])-p(['\"]?)([^\\s'\"-][^\\s'\"]{0,255}+)");
        static final LazyPattern DASH_P_SPACE = new LazyPattern(
                "(?<![A-Za-z0-9_-])-p[ \\t]+(['\"]?)([^\\s'\"-][^\\s'\"]{0,255}+)");

    }

    /** Adds the span of every password on a command line. */
    static void mask(String text, String latin, Spans spans) {
        if (latin.contains("-u ") || latin.contains("--user ")) {
            Starts starts = Starts.of(latin, "-u", 0); // -u or --user
            starts.addAll(latin, "-u", 1);
            AnchoredFind m = new AnchoredFind(Patterns.CURL_USER, text, starts);
            while (m.find()) {
                if (Values.isLiteralSecret(text, m.start(1), m.end(1))
                        && lineContains(text, m.start(), "curl", "wget", "http")) {
                    spans.add(m.start(1), m.end(1));
                }
            }
        }
        if (latin.contains("-p")) {
            boolean mysql = latin.contains("mysql") || latin.contains("mariadb");
            boolean spaced = latin.contains("sshpass") || latin.contains("login");
            if (mysql) {
                AnchoredFind m = new AnchoredFind(Patterns.MYSQL_P, text, Starts.of(latin, "-p", 0));
                while (m.find()) {
                    if (lineContains(text, m.start(), "mysql", "mariadb")
                            && Values.isLiteralSecret(text, m.start(2), m.end(2))) {
                        spans.add(m.start(2), m.end(2));
                    }
                }
            }
            if (spaced) {
                AnchoredFind m = new AnchoredFind(Patterns.DASH_P_SPACE, text, Starts.of(latin, "-p", 0));
                while (m.find()) {
                    if (lineContains(text, m.start(), "sshpass", "docker login", "podman login", "helm registry login")
                            && Values.isLiteralSecret(text, m.start(2), m.end(2))) {
                        spans.add(m.start(2), m.end(2));
                    }
                }
            }
        }
    }

    /**
     * Whether the command line around {@code at} holds one of the words: its line and the
     * lines before it that end in a backslash (a command continued).
     */
    private static boolean lineContains(String text, int at, String... words) {
        int start = text.lastIndexOf('\n', at) + 1;
        while (start >= 2 && (text.charAt(start - 2) == '\\'
                || text.charAt(start - 2) == '\r' && start >= 3 && text.charAt(start - 3) == '\\')) {
            start = text.lastIndexOf('\n', start - 2) + 1;
        }
        int end = text.indexOf('\n', at);
        String line = text.substring(start, end < 0 ? text.length() : end);
        for (String w : words) {
            if (line.contains(w)) {
                return true;
            }
        }
        return false;
    }

}

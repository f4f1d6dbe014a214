package dev.codememory.capture.privacy.secrets;

/**
 * Rule 7 of {@link SecretRules}: the values of a Kubernetes Secret manifest. In a text
 * that declares {@code kind: Secret}, every value under {@code data:} and
 * {@code stringData:} is masked, whatever its key is called ({@code .dockercfg},
 * {@code extra}, {@code username}): the base64 there is the secret, only encoded. Block
 * scalars ({@code >}, {@code |}) are masked line by line. The keys stay.
 */
final class KubernetesSecrets {

    private KubernetesSecrets() {
    }

    /**
     * Adds the span of every value under a Secret's {@code data:} or {@code stringData:}.
     */
    static void mask(String text, String latin, Spans spans) {
        int data = latin.indexOf("ata:");
        if (data < 0 || !declaresSecretKind(latin)) {
            return;
        }
        int n = text.length();
        int dataIndent = -1; // indentation of the open data: key, or -1
        int scalarIndent = -1; // indentation of an entry whose block scalar is open, or
                               // -1
        // from the line of the first data: on (what is before it cannot be under one)
        for (int lineStart = latin.lastIndexOf('\n', data) + 1; lineStart < n;) {
            int lineEnd = text.indexOf('\n', lineStart);
            lineEnd = lineEnd < 0 ? n : lineEnd;
            int first = lineStart;
            while (first < lineEnd && (text.charAt(first) == ' ' || text.charAt(first) == '\t')) {
                first++;
            }
            int last = lineEnd;
            while (last > first && Character.isWhitespace(text.charAt(last - 1))) {
                last--;
            }
            int indent = first - lineStart;
            if (first == last || text.charAt(first) == '#') {
                lineStart = lineEnd + 1;
                continue;
            }
            if (dataIndent >= 0 && indent > dataIndent) {
                if (scalarIndent >= 0 && indent > scalarIndent) {
                    spans.add(first, last);
                }
                else {
                    scalarIndent = maskEntry(text, first, last, spans) ? indent : -1;
                }
            }
            else {
                scalarIndent = -1;
                String line = text.substring(first, last);
                dataIndent = line.equals("data:") || line.equals("stringData:") ? indent : -1;
            }
            lineStart = lineEnd + 1;
        }
    }

    /**
     * Masks the value of one {@code key: value} line; true when the value is a block
     * scalar whose lines follow.
     */
    private static boolean maskEntry(String text, int first, int last, Spans spans) {
        int colon = text.indexOf(':', first);
        if (colon < 0 || colon >= last) {
            return false;
        }
        int start = colon + 1;
        while (start < last && (text.charAt(start) == ' ' || text.charAt(start) == '\t')) {
            start++;
        }
        int end = last;
        if (start == end) {
            return false;
        }
        char c = text.charAt(start);
        if (c == '>' || c == '|') {
            return true;
        }
        if ((c == '"' || c == '\'') && end - start >= 2 && text.charAt(end - 1) == c) {
            start++;
            end--;
        }
        if (Values.isLiteralSecret(text, start, end)) {
            spans.add(start, end);
        }
        return false;
    }

    /** Whether a line of the text is {@code kind: Secret} (quoted or not, any case). */
    private static boolean declaresSecretKind(String latin) {
        for (int at = latin.indexOf("kind:"); at >= 0; at = latin.indexOf("kind:", at + 1)) {
            int p = at + 5;
            while (p < latin.length()
                    && (latin.charAt(p) == ' ' || latin.charAt(p) == '"' || latin.charAt(p) == '\'')) {
                p++;
            }
            if (latin.regionMatches(true, p, "secret", 0, 6)) {
                int q = p + 6;
                while (q < latin.length() && (latin.charAt(q) == '"' || latin.charAt(q) == '\''
                        || latin.charAt(q) == ' ' || latin.charAt(q) == '\r')) {
                    q++;
                }
                if (q == latin.length() || latin.charAt(q) == '\n') {
                    return true;
                }
            }
        }
        return false;
    }

}

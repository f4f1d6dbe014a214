package dev.codememory.capture.privacy.secrets;

/**
 * Rule 8 of {@link SecretRules}: values of keys that name no secret word yet hold one,
 * because of the provider they belong to: Bundler's per-host credentials
 * ({@code BUNDLE_GEMS__EXAMPLE__COM=user:password}), SonarQube's {@code sonar.login},
 * Sumo Logic's access id, and keys that are just a provider's name
 * ({@code cloudflare: "…"}, {@code sourcegraph: …}), whose value is masked when it looks
 * random. {@link ValueAfterKey} reads the value as it does for a secret-named key.
 */
final class ProviderKeys {

    private ProviderKeys() {
    }

    /** Hints, lower case: each begins such a key, in any case. */
    private static final String[] HINTS = { "bundle", "sonar", "sumo", "cloudflare", "sourcegraph" };

    /** The first letters of the hints (b, s, c in either case), by byte value. */
    private static final boolean[] HINT_START = new boolean[256];

    static {
        for (String hint : HINTS) {
            HINT_START[hint.charAt(0)] = true;
            HINT_START[Character.toUpperCase(hint.charAt(0))] = true;
        }
    }

    /** Adds the span of every literal value of such a key: one pass over the view. */
    static void mask(String text, byte[] view, Spans spans) {
        int n = view.length;
        for (int at = 0; at < n; at++) {
            if (!HINT_START[view[at] & 0xFF] || !isHint(view, at)) {
                continue;
            }
            int keyStart = at;
            while (keyStart > 0 && isKeyChar((char) (view[keyStart - 1] & 0xFF))) {
                keyStart--;
            }
            int keyEnd = at;
            while (keyEnd < n && isKeyChar((char) (view[keyEnd] & 0xFF))) {
                keyEnd++;
            }
            int nameStart = keyStart;
            while (nameStart < keyEnd && view[nameStart] == '-') {
                nameStart++;
            }
            if (nameStart > keyStart && view[nameStart] == 'D') {
                nameStart++; // a JVM system property, -Dsonar.login=…
            }
            if (keyEnd - nameStart <= 80) {
                KeyClass keyClass = classify(text.substring(nameStart, keyEnd));
                if (keyClass != KeyClass.NONE) {
                    new ValueAfterKey(text, spans, keyClass, keyStart, nameStart, keyEnd, false).mask();
                }
            }
            at = keyEnd;
        }
    }

    private static boolean isHint(byte[] view, int at) {
        for (String hint : HINTS) {
            if (Ascii.startsWithIgnoreCase(view, at, hint)) {
                return true;
            }
        }
        return false;
    }

    /** The class of a provider's key name, or NONE. */
    static KeyClass classify(String name) {
        if (name.regionMatches(true, 0, "BUNDLE_", 0, 7) && name.indexOf("__") > 7) {
            return KeyClass.STRONG;
        }
        String[] parts = SecretNames.parts(name);
        if (parts.length == 0) {
            return KeyClass.NONE;
        }
        String last = parts[parts.length - 1];
        boolean sonar = false;
        boolean sumo = false;
        for (String part : parts) {
            sonar |= part.equals("sonar") || part.equals("sonarqube") || part.equals("sonarcloud");
            sumo |= part.startsWith("sumo");
        }
        if (sonar && last.equals("login")) {
            return KeyClass.STRONG;
        }
        if (sumo && (last.equals("accessid")
                || parts.length >= 2 && last.equals("id") && parts[parts.length - 2].equals("access"))) {
            return KeyClass.STRONG;
        }
        if (parts.length == 1 && (last.equals("cloudflare") || last.equals("sourcegraph"))) {
            return KeyClass.WEAK;
        }
        return KeyClass.NONE;
    }

    private static boolean isKeyChar(char c) {
        return Ascii.isAlnum(c) || c == '_' || c == '-' || c == '.';
    }

}

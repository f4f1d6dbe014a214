package dev.codememory.processors.privacy.secrets;

/**
 * Rule 8 of {@link SecretRules}: values of keys that name no secret word yet hold one,
 * because of the provider they belong to: Bundler's per-host credentials
 * ({@code BUNDLE_GEMS__EXAMPLE__COM=user:password}), SonarQube's {@code sonar.login},
 * Sumo Logic's access id, and keys that are just a provider's name
 * ({@code cloudflare: "…"}, {@code sourcegraph: …}), whose value is masked when it looks
 * random. {@link KeyValue} reads the value as it does for a secret-named key.
 */
final class ProviderKeys {

    private ProviderKeys() {
    }

    /** Hints, each the start of such a key in one of its usual cases. */
    private static final String[] HINTS = { "BUNDLE_", "sonar", "SONAR", "Sonar", "sumo", "SUMO", "Sumo", "cloudflare",
            "sourcegraph" };

    static void mask(String text, String latin, Spans spans) {
        for (String hint : HINTS) {
            for (int at = latin.indexOf(hint); at >= 0; at = latin.indexOf(hint, at + 1)) {
                int keyStart = at;
                while (keyStart > 0 && isKeyChar(latin.charAt(keyStart - 1))) {
                    keyStart--;
                }
                int keyEnd = at;
                while (keyEnd < latin.length() && isKeyChar(latin.charAt(keyEnd))) {
                    keyEnd++;
                }
                if (keyEnd - keyStart > 80) {
                    continue;
                }
                int nameStart = keyStart;
                while (nameStart < keyEnd && latin.charAt(nameStart) == '-') {
                    nameStart++;
                }
                if (nameStart > keyStart && latin.startsWith("D", nameStart)) {
                    nameStart++; // a JVM system property, -Dsonar.login=…
                }
                KeyClass keyClass = classify(text.substring(nameStart, keyEnd));
                if (keyClass != KeyClass.NONE) {
                    new KeyValue(text, spans, keyClass, keyStart, nameStart, keyEnd, false).mask();
                }
                at = keyEnd;
            }
        }
    }

    /** The class of a provider's key name, or NONE. */
    static KeyClass classify(String name) {
        if (name.startsWith("BUNDLE_") && name.indexOf("__") > 7) {
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

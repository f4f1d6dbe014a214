package dev.codememory.capture.privacy.secrets;

import java.util.Arrays;
import java.util.Locale;
import java.util.Set;

/**
 * Which key names (a JSON field, a variable, a header, a flag) name a secret: the
 * {@link KeyClass} of a name, from the parts it splits into.
 */
final class SecretNames {

    private SecretNames() {
    }

    /** Parts that make a name a secret's name. */
    private static final Set<String> SECRET_PARTS = Set.of("password", "passwords", "passwd", "passwrd", "pwd", "pass",
            "pw", "passphrase", "passcode", "secret", "token", "credential", "credentials", "creds", "cred", "apikey",
            "privatekey", "secretkey", "accesskey", "authkey", "authtoken", "accesstoken", "refreshtoken",
            "clientsecret", "sessionkey", "masterkey");

    /** Words before {@code key} that make it a secret's key. */
    private static final Set<String> KEY_QUALIFIERS = Set.of("api", "private", "secret", "access", "auth", "signing",
            "encryption", "encrypt", "decryption", "master", "client", "app", "account", "shared", "service", "license",
            "webhook", "deploy", "hmac", "jwt", "session", "storage", "subscription", "admin", "write", "consumer",
            "aes", "crypto", "cipher", "sas", "secondary", "root", "x", "ingest", "management", "mgmt", "server",
            "sendgrid", "stripe", "openai", "anthropic", "mailgun", "algolia", "cohere", "mistral", "groq");

    /**
     * A last part that says the value is about the secret, not the secret
     * ({@code PASSWORD_MIN_LENGTH}).
     */
    private static final Set<String> META_PARTS = Set.of("length", "len", "min", "max", "count", "type", "types",
            "kind", "field", "fields", "file", "files", "path", "paths", "dir", "url", "uri", "urls", "endpoint",
            "host", "name", "names", "id", "ids", "env", "var", "vars", "header", "prefix", "suffix", "policy", "regex",
            "pattern", "label", "placeholder", "prompt", "hint", "expires", "expiry", "expiration", "expire", "ttl",
            "lifetime", "timeout", "format", "version", "validator", "validation", "required", "enabled", "enable",
            "disabled", "manager", "provider", "usage", "limit", "limits", "size", "index", "mode", "method",
            "strategy", "class", "schema", "input", "form", "error", "errors", "message", "msg", "help", "text",
            "title", "description", "desc", "strength", "rule", "rules", "changed", "updated", "created", "at", "date",
            "time", "ref", "refs", "reference", "location", "arn", "param", "params", "button", "dialog", "modal",
            "page", "screen", "view", "component", "route", "template", "reset", "visible", "visibility", "toggle",
            "checker", "generator", "hasher", "encoder", "expected", "store", "storage", "cache", "source", "issuer",
            "audience", "algorithm", "alg", "scope", "scopes", "budget", "estimate", "secs", "seconds", "ms", "mins",
            "minutes", "hours", "days", "age", "interval", "rotation", "rotated", "lookup", "query", "request",
            "response", "handler", "callback", "spec", "test", "tests");

    /**
     * Words that may follow a secret's name and leave it one ({@code SECRET_KEY_BASE},
     * {@code TOKEN_PROD}).
     */
    private static final Set<String> TAIL_PARTS = Set.of("base", "value", "val", "data", "b64", "base64", "hex", "raw",
            "enc", "encoded", "encrypted", "plain", "plaintext", "str", "string", "prod", "production", "dev",
            "development", "staging", "stage", "test", "live", "sandbox", "current", "old", "new", "confirmation",
            "confirm", "again", "repeat", "local", "default", "override", "secret", "key", "token", "password", "main",
            "secondary", "bytes", "bin", "pem", "der", "json", "admin", "root", "user", "master", "hash", "access",
            "refresh", "api", "auth", "client", "private", "session", "v1", "v2", "v3");

    /**
     * Parts that make a secret-looking name something else ({@code nextPageToken},
     * {@code max_tokens}).
     */
    private static final Set<String> NOT_SECRET_PARTS = Set.of("page", "next", "continuation", "cancellation", "cancel",
            "sync", "resume", "pagination", "cursor", "lexer", "parser", "syntax", "design", "max", "min", "num",
            "total", "is", "has", "use", "uses", "requires", "require", "no", "without", "show", "hide", "forgot",
            "jsonwebtoken", "public", "publishable", "pub", "primary", "foreign", "sort", "partition", "hash", "range",
            "row", "unique", "composite", "surrogate", "natural", "cache", "idempotency", "dedupe", "map", "lookup",
            "dict", "keyboard", "hot", "shortcut", "i18n", "translation");

    /** Classifies a key name (quotes and leading dashes already removed). */
    static KeyClass classify(String name) {
        int dot = name.lastIndexOf('.');
        String[] parts = parts(dot >= 0 ? name.substring(dot + 1) : name);
        if (parts.length == 0 || parts.length > 8) {
            return KeyClass.NONE;
        }
        if (parts.length == 1 && (parts[0].equals("authorization") || parts[0].equals("authentication"))) {
            return KeyClass.AUTHORIZATION;
        }
        if (parts.length == 2 && parts[0].equals("proxy") && parts[1].equals("authorization")) {
            return KeyClass.AUTHORIZATION;
        }
        int core = -1;
        boolean weak = false;
        for (int k = 0; k < parts.length; k++) {
            String p = parts[k];
            if (SECRET_PARTS.contains(p) || isCompoundSecret(p)) {
                core = k;
            }
            else if (p.equals("key") || p.equals("keys")) {
                if (k > 0 && KEY_QUALIFIERS.contains(parts[k - 1]) && !p.equals("keys")) {
                    core = k;
                }
                else if (core < 0) {
                    weak = true;
                    core = k;
                }
            }
        }
        if (core < 0) {
            if (parts.length == 1
                    && (parts[0].equals("auth") || parts[0].equals("sig") || parts[0].equals("signature"))) {
                return KeyClass.WEAK;
            }
            return KeyClass.NONE;
        }
        for (String p : parts) {
            if (NOT_SECRET_PARTS.contains(p)) {
                return KeyClass.NONE;
            }
        }
        if (core < parts.length - 1 && META_PARTS.contains(parts[parts.length - 1])) {
            return KeyClass.NONE;
        }
        for (int k = core + 1; k < parts.length; k++) {
            if (!TAIL_PARTS.contains(parts[k]) && !Ascii.allDigits(parts[k])) {
                return KeyClass.NONE; // secret_santa: the secret word qualifies something
                                      // else
            }
        }
        return weak ? KeyClass.WEAK : KeyClass.STRONG;
    }

    /**
     * {@code dbpassword}, {@code githubtoken}, {@code mysqlrootpassword}: one word that
     * ends in a secret's name.
     */
    private static boolean isCompoundSecret(String part) {
        return part.length() > 6 && (part.endsWith("password") || part.endsWith("passwd") || part.endsWith("secret")
                || part.endsWith("token") || part.endsWith("apikey") || part.endsWith("privatekey")
                || part.endsWith("secretkey") || part.endsWith("accesskey"));
    }

    /**
     * Splits a name on {@code _ - .} and camel case, lower case. {@code APIKey} → api,
     * key.
     */
    static String[] parts(String name) {
        String[] out = new String[8];
        int count = 0;
        int n = name.length();
        int start = 0;
        for (int i = 0; i <= n; i++) {
            boolean cut;
            if (i == n) {
                cut = true;
            }
            else {
                char c = name.charAt(i);
                if (c == '_' || c == '-' || c == '.' || c == ' ') {
                    if (i > start) {
                        if (count == out.length) {
                            return new String[0];
                        }
                        out[count++] = name.substring(start, i).toLowerCase(Locale.ROOT);
                    }
                    start = i + 1;
                    continue;
                }
                cut = i > start && Character.isUpperCase(c) && (Character.isLowerCase(name.charAt(i - 1)) || (i + 1 < n
                        && Character.isLowerCase(name.charAt(i + 1)) && Character.isUpperCase(name.charAt(i - 1))));
                if (cut) {
                    if (count == out.length) {
                        return new String[0];
                    }
                    out[count++] = name.substring(start, i).toLowerCase(Locale.ROOT);
                    start = i;
                }
                continue;
            }
            if (i > start) {
                if (count == out.length) {
                    return new String[0];
                }
                out[count++] = name.substring(start, i).toLowerCase(Locale.ROOT);
            }
        }
        return Arrays.copyOf(out, count);
    }

}

package dev.codememory.capture.privacy;

import dev.codememory.capture.privacy.secrets.SecretRules;

/**
 * Removes user-marked private sections and well-known secret shapes from free text before
 * it is stored.
 *
 * <p>
 * JDK only on purpose: this class runs inside a Claude Code hook process that must start
 * fast. Instances are immutable and thread-safe; all patterns are compiled once.
 *
 * <p>
 * Rules, in order:
 * <ol>
 * <li>{@code <private>…</private>} sections ({@link PrivateSections}) (case-insensitive
 * tag names, spaces allowed before {@code >}) become {@value #PRIVATE_MARKER}; empty or
 * whitespace-only sections vanish; nesting redacts the whole outer block; an unclosed
 * opener redacts to the end of the text; a stray closer stays literal. Tags inside closed
 * fenced code blocks and inline code spans stay literal, but only while outside a private
 * section.</li>
 * <li>Secret shapes (API keys, AWS key ids, GitHub/Slack tokens, PEM private keys, bearer
 * tokens and {@code password=…}-style assignments) become {@value #SECRET_MARKER},
 * everywhere, code blocks included.</li>
 * </ol>
 * Nothing else in the text is changed.
 */
public final class Redactor {

    public static final String PRIVATE_MARKER = SecretRules.PRIVATE_MARKER;

    public static final String SECRET_MARKER = SecretRules.SECRET_MARKER;

    private static final Redactor DEFAULTS = new Redactor();

    private Redactor() {
    }

    /** The standard rule set. */
    public static Redactor defaults() {
        return DEFAULTS;
    }

    /**
     * Applies all rules.
     * @return {@code null} for {@code null}; the same instance when nothing matched
     */
    public String redact(String text) {
        if (text == null || text.isEmpty()) {
            return text;
        }
        byte[] view = SecretRules.view(text);
        String latin = SecretRules.latin(view);
        String result = PrivateSections.redact(text, latin);
        if (result != text) {
            view = SecretRules.view(result);
            latin = SecretRules.latin(view);
        }
        return SecretRules.redact(result, view, latin);
    }

    /**
     * Applies all rules and marks the result as redacted: the one way to make a
     * {@link RedactedText}, the form in which text read from outside the home is handed
     * on to be stored.
     * @return {@code null} for {@code null}
     */
    public RedactedText redactToText(String text) {
        return text == null ? null : new RedactedText(redact(text));
    }

    /**
     * Masks every value of a file that holds secrets (see
     * {@link #isCredentialFile(String)}): each {@code key=value}, {@code key: value} and
     * {@code "key": "value"} line keeps its key and loses its value whatever the key is
     * called, then all rules of {@link #redact(String)} apply.
     * @return {@code null} for {@code null}
     */
    public String redactCredentialFile(String text) {
        if (text == null || text.isEmpty()) {
            return text;
        }
        return redact(CredentialFiles.mask(text));
    }

    /**
     * Whether a path names a file whose values are secrets: {@code .env} and
     * {@code .env.*} (not {@code .example}, {@code .sample}, {@code .template}),
     * {@code .envrc}, {@code .netrc}, {@code .pgpass}, {@code .npmrc}, {@code .pypirc},
     * {@code .git-credentials}, AWS {@code credentials}, {@code credentials.*},
     * {@code secrets.*}, {@code *.pem}, {@code *.key}, {@code *.tfvars}, SSH private
     * keys, Docker and Kubernetes client configs.
     */
    public static boolean isCredentialFile(String path) {
        return CredentialFiles.isCredentialFile(path);
    }

    /**
     * Whether a key (a JSON field, a variable, a header) names a secret, so that its
     * literal value is one: {@code password}, {@code DB_PASSWORD}, {@code apiKey},
     * {@code client-secret}, {@code GITHUB_TOKEN}, {@code credentials}; not
     * {@code max_tokens}, {@code tokenizer}, {@code password_min_length},
     * {@code nextPageToken}, {@code primary_key}.
     */
    public static boolean isSecretName(String key) {
        return key != null && SecretRules.isSecretName(key);
    }

}

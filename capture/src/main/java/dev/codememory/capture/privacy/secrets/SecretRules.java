package dev.codememory.capture.privacy.secrets;

import dev.codememory.config.json.Latin1View;
import java.nio.charset.StandardCharsets;

/**
 * The secret rules of the redactor: where in a text a secret value sits. Every rule reads
 * the same input and adds {@link Spans}; overlapping and touching spans are merged and
 * each merged span becomes one {@link #SECRET_MARKER}. Only the value is masked: a key, a
 * header name, a user name, a URL's host stay, so the text still reads.
 *
 * <p>
 * Rules, one class each, each behind a cheap substring check so text without a hint of a
 * secret costs one or two passes:
 * <ol>
 * <li><b>Private key blocks</b> ({@link PrivateKeyBlocks}): {@code -----BEGIN … PRIVATE
 * KEY-----} to its END line, or to the end of the text when unclosed, also inside JSON
 * strings where the line breaks are {@code \n} escapes.</li>
 * <li><b>Provider token shapes</b> ({@link TokenShapes}): a fixed prefix and a body of
 * the documented alphabet and length (Anthropic and OpenAI {@code sk-…}, AWS key ids,
 * GitHub, GitLab, Slack, Stripe, Google, Twilio, SendGrid, npm, PyPI, Docker, Hugging
 * Face, JWTs and some fifty more), found by one scan that only looks at a word start
 * whose first character begins some prefix; and a few unprefixed shapes
 * ({@link UnprefixedShapes}: Azure AD client secrets, Telegram bot tokens, Mailchimp
 * keys, Terraform Cloud tokens, Sentry DSN keys, Slack/Discord/Teams webhook paths).</li>
 * <li><b>Credentials in URLs and DSNs</b> ({@link UrlCredentials}): the password of
 * {@code scheme://user:password@host} and of Go's {@code user:password@tcp(host)}.</li>
 * <li><b>Authorization values</b> ({@link AuthorizationValues}): the credential after
 * {@code Bearer} or {@code Basic} when it looks like one (a digit or mixed case), so
 * "bearer authentication" in prose stays.</li>
 * <li><b>Values of secret-named keys</b> ({@link SecretNamedKeys}) in text, JSON (also
 * JSON held as an escaped string inside another string), YAML, TOML, {@code .env}, INI,
 * shell, code and connection strings: see {@link SecretNames#classify(String)} for which
 * names count and {@link ValueAfterKey} for which values are masked (literals are, code
 * is not: {@code password = getpass()}, {@code secret: str}, {@code token=token},
 * {@code os.environ["SECRET_KEY"]} stay); the default of an environment lookup
 * ({@code getenv("DB_PASSWORD", "…")}, {@code ${DB_PASSWORD:-…}},
 * {@code process.env.API_TOKEN || "…"}); {@code Credentials: user/password};
 * {@code --password …} flags; {@code .netrc} lines.</li>
 * <li><b>Command lines</b> ({@link CommandLines}): {@code curl -u user:password},
 * {@code mysql -p…}, {@code sshpass -p …}, {@code docker login -p …}.</li>
 * <li><b>Kubernetes Secrets</b> ({@link KubernetesSecrets}): every value under
 * {@code data:} and {@code stringData:} of a manifest of {@code kind: Secret}.</li>
 * <li><b>Provider keys</b> ({@link ProviderKeys}): keys without a secret word that hold
 * one for their provider ({@code BUNDLE_GEMS__EXAMPLE__COM}, {@code sonar.login}, Sumo
 * Logic's access id, {@code cloudflare: …}).</li>
 * </ol>
 * Patterns are compiled on first need ({@link LazyPattern}) and use bounded or possessive
 * repeats only, so matching stays linear. Applying the rules to their own output changes
 * nothing: values that already are a marker are skipped.
 *
 * <p>
 * JDK only, like the redactor: it runs inside the hook process.
 */
public final class SecretRules {

    /** What each masked secret becomes. */
    public static final String SECRET_MARKER = "[REDACTED]";

    /**
     * What the redactor writes for a {@code <private>} section: the rules take a value
     * that is one for a placeholder, as they take {@link #SECRET_MARKER}.
     */
    public static final String PRIVATE_MARKER = "[PRIVATE]";

    private SecretRules() {
    }

    /** Masks every secret value of {@code text}. */
    public static String redact(String text) {
        byte[] view = view(text);
        return redact(text, view, latin(view));
    }

    /**
     * {@link #redact(String)} with the text's {@link #view} and {@link #latin} copy
     * already made.
     */
    public static String redact(String text, byte[] view, String latin) {
        Spans spans = new Spans();
        PrivateKeyBlocks.mask(text, latin, spans);
        TokenShapes.mask(text, view, spans);
        UnprefixedShapes.mask(text, latin, spans);
        UrlCredentials.mask(text, latin, spans);
        AuthorizationValues.mask(text, latin, view, spans);
        SecretNamedKeys.mask(text, view, spans);
        CommandLines.mask(text, latin, spans);
        KubernetesSecrets.mask(text, latin, spans);
        ProviderKeys.mask(text, view, spans);
        return spans.apply(text);
    }

    /**
     * The text with one byte per char ({@link Latin1View}), for the scans that walk every
     * character. Every rule looks for ASCII characters only, and none starts with the
     * {@code '?'} that stands for a char above U+00FF, so a scan of the view finds
     * exactly what a scan of the text would.
     */
    public static byte[] view(String text) {
        return Latin1View.of(text);
    }

    /**
     * The view as a Latin-1 string: the rules' substring searches run on it, with the
     * JDK's Latin-1 search that a fresh JVM has compiled already (on text with a
     * character above U+00FF, the JDK's UTF-16 search is interpreted: ~4 ms a search on
     * 100 KB). Its indices are the text's, and no needle searched for holds a
     * {@code '?'}.
     */
    public static String latin(byte[] view) {
        return new String(view, StandardCharsets.ISO_8859_1);
    }

    /**
     * Whether a key (a JSON field, a variable, a header) names a secret, so that its
     * literal value is one ({@link KeyClass#STRONG}).
     */
    public static boolean isSecretName(String key) {
        return SecretNames.classify(key) == KeyClass.STRONG;
    }

    /**
     * Whether a value stands for a secret rather than being one: a marker, a
     * {@code <placeholder>}, {@code ****}, {@code changeme}, {@code your_api_key}.
     */
    public static boolean isPlaceholder(String value) {
        return Values.isPlaceholder(value);
    }

}

package dev.codememory.jobs.distill;

import java.time.Duration;
import java.util.Locale;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings under {@code code-memory.distill.*}: the opt-in step that asks the developer's
 * own model what a finished session taught. Off by default; off, graduation is what it
 * was.
 *
 * @param enabled true: {@code --job=graduate} distils finished sessions
 * @param client {@code claude-cli} (the local {@code claude} in print mode, with its own
 * login; the default) or {@code messages-api} (the Anthropic Messages API with
 * {@code api-key})
 * @param model the model (default {@code haiku} for the CLI, {@code claude-haiku-4-5} for
 * the API)
 * @param claudeCommand the CLI to run (default {@code claude} on the PATH)
 * @param baseUrl the Messages API's address (default {@code https://api.anthropic.com})
 * @param apiKey the key for the Messages API (default: the environment's
 * {@code ANTHROPIC_API_KEY})
 * @param dailyTokenBudget tokens a UTC day's requests may cost at most, counted as the
 * model reports them (a request is sent only when its worst case still fits)
 * @param sessionInputTokens the cap on what one request sends
 * @param maxOutputTokens the cap on one answer
 * @param minSessionTokens sessions whose texts come to less are not sent
 * @param timeout how long one request may take
 * @param retryAfter the wait before a session whose request failed is asked again,
 * doubled with each further failure
 * @param maxAttempts failed requests after which a session is given up
 */
@ConfigurationProperties("code-memory.distill")
public record DistillProperties(Boolean enabled, String client, String model, String claudeCommand, String baseUrl,
        String apiKey, Long dailyTokenBudget, Long sessionInputTokens, Integer maxOutputTokens, Long minSessionTokens,
        Duration timeout, Duration retryAfter, Integer maxAttempts) {

    public static final String CLAUDE_CLI = "claude-cli";

    public static final String MESSAGES_API = "messages-api";

    public DistillProperties {
        enabled = enabled != null && enabled;
        client = client == null || client.isBlank() ? CLAUDE_CLI : client.strip().toLowerCase(Locale.ROOT);
        if (!client.equals(CLAUDE_CLI) && !client.equals(MESSAGES_API)) {
            throw new IllegalArgumentException(
                    "code-memory.distill.client: " + client + " is neither " + CLAUDE_CLI + " nor " + MESSAGES_API);
        }
        model = model == null || model.isBlank() ? (client.equals(CLAUDE_CLI) ? "haiku" : "claude-haiku-4-5")
                : model.strip();
        claudeCommand = claudeCommand == null || claudeCommand.isBlank() ? "claude" : claudeCommand.strip();
        baseUrl = baseUrl == null || baseUrl.isBlank() ? "https://api.anthropic.com" : baseUrl.strip();
        apiKey = apiKey == null || apiKey.isBlank() ? System.getenv("ANTHROPIC_API_KEY") : apiKey.strip();
        dailyTokenBudget = dailyTokenBudget == null ? 200_000L : dailyTokenBudget;
        sessionInputTokens = sessionInputTokens == null ? 12_000L : sessionInputTokens;
        maxOutputTokens = maxOutputTokens == null ? 2_000 : maxOutputTokens;
        minSessionTokens = minSessionTokens == null ? 400L : minSessionTokens;
        timeout = timeout == null ? Duration.ofMinutes(2) : timeout;
        retryAfter = retryAfter == null ? Duration.ofMinutes(30) : retryAfter;
        maxAttempts = maxAttempts == null ? 5 : maxAttempts;
        if (dailyTokenBudget < 0 || sessionInputTokens < 1_000 || maxOutputTokens < 100 || minSessionTokens < 0
                || maxAttempts < 1 || timeout.isNegative() || timeout.isZero() || retryAfter.isNegative()) {
            throw new IllegalArgumentException("code-memory.distill: daily-token-budget must not be negative,"
                    + " session-input-tokens at least 1000, max-output-tokens at least 100, max-attempts at least 1,"
                    + " timeout positive and retry-after not negative");
        }
        if (enabled && client.equals(MESSAGES_API) && (apiKey == null || apiKey.isBlank())) {
            throw new IllegalArgumentException("code-memory.distill.api-key (or ANTHROPIC_API_KEY) must be set when"
                    + " code-memory.distill.client=messages-api");
        }
    }

    /** The defaults: off. */
    public static DistillProperties defaults() {
        return new DistillProperties(null, null, null, null, null, null, null, null, null, null, null, null, null);
    }

}

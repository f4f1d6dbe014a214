package dev.codememory.jobs.distill;

import dev.codememory.config.distill.DistillAnswer;
import dev.codememory.config.distill.DistillModel;
import dev.codememory.config.distill.DistillModelException.Reason;
import dev.codememory.config.distill.DistillModelException;
import dev.codememory.config.distill.DistillRequest;
import dev.codememory.config.json.Json;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The Anthropic Messages API with the user's key: one non-streaming {@code POST
 * /v1/messages} per request. 429 and 529 (overloaded) are {@code RATE_LIMITED}, another
 * error status or no connection {@code UNREACHABLE}, no answer in time {@code TIMEOUT}.
 */
final class MessagesApiModel implements DistillModel {

    private final HttpClient http;

    private final URI endpoint;

    private final String apiKey;

    private final String model;

    private final Duration timeout;

    MessagesApiModel(String baseUrl, String apiKey, String model, Duration timeout) {
        this.http = HttpClient.newBuilder().connectTimeout(timeout).build();
        this.endpoint = URI.create(baseUrl.replaceAll("/+$", "") + "/v1/messages");
        this.apiKey = apiKey;
        this.model = model;
        this.timeout = timeout;
    }

    @Override
    public DistillAnswer ask(DistillRequest request) {
        String body = Json.write(Map.of("model", model, "max_tokens", request.maxOutputTokens(), "system",
                request.system(), "messages", List.of(Map.of("role", "user", "content", request.user()))));
        HttpRequest post = HttpRequest.newBuilder(endpoint)
            .timeout(timeout)
            .header("content-type", "application/json")
            .header("anthropic-version", "2023-06-01")
            .header("x-api-key", apiKey)
            .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))
            .build();
        HttpResponse<String> response;
        try {
            response = http.send(post, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        }
        catch (HttpTimeoutException e) {
            throw new DistillModelException(Reason.TIMEOUT, "no answer within " + timeout, null, e);
        }
        catch (IOException e) {
            throw new DistillModelException(Reason.UNREACHABLE, "cannot reach " + endpoint + ": " + e.getMessage(),
                    null, e);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DistillModelException(Reason.UNREACHABLE, "interrupted", null, e);
        }
        int status = response.statusCode();
        if (status == 429 || status == 529) {
            throw new DistillModelException(Reason.RATE_LIMITED, "HTTP " + status);
        }
        if (status != 200) {
            throw new DistillModelException(Reason.UNREACHABLE, "HTTP " + status);
        }
        return answer(response.body());
    }

    /** The text blocks of a message and its usage. */
    static DistillAnswer answer(String body) {
        Object doc;
        try {
            doc = Json.parse(body);
        }
        catch (RuntimeException e) {
            throw new DistillModelException(Reason.MALFORMED, "the API's answer is not JSON", null, e);
        }
        if (!(doc instanceof Map<?, ?> message) || !(message.get("content") instanceof List<?> content)) {
            throw new DistillModelException(Reason.MALFORMED, "the API's answer has no content");
        }
        StringBuilder text = new StringBuilder();
        for (Object block : content) {
            if (block instanceof Map<?, ?> b && "text".equals(b.get("type")) && b.get("text") instanceof String s) {
                text.append(s);
            }
        }
        Map<?, ?> usage = message.get("usage") instanceof Map<?, ?> u ? u : Map.of();
        return new DistillAnswer(text.toString(), tokens(usage, "input_tokens")
                + tokens(usage, "cache_creation_input_tokens") + tokens(usage, "cache_read_input_tokens"),
                tokens(usage, "output_tokens"));
    }

    static long tokens(Map<?, ?> usage, String name) {
        Object value = usage.get(name);
        String literal = value instanceof Json.JsonNumber n ? n.literal() : value == null ? null : value.toString();
        try {
            return literal == null ? 0 : Long.parseLong(literal);
        }
        catch (NumberFormatException e) {
            return 0;
        }
    }

}

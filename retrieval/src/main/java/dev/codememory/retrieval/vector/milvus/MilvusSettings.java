package dev.codememory.retrieval.vector.milvus;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Locale;

/**
 * Where the Milvus server is.
 *
 * @param uri required, {@code http://host:port} or {@code https://host:port}, e.g.
 * {@code http://localhost:19530}
 * @param token optional: {@code user:password} or an API key; blank means none
 * @param database optional: the Milvus database; blank means the server's {@code default}
 */
public record MilvusSettings(String uri, String token, String database) {

    public MilvusSettings {
        if (uri == null || uri.isBlank()) {
            throw new IllegalArgumentException("milvus uri is required, e.g. http://localhost:19530");
        }
        uri = uri.strip();
        URI parsed;
        try {
            parsed = new URI(uri);
        }
        catch (URISyntaxException e) {
            throw new IllegalArgumentException("milvus uri is not a URI: " + uri, e);
        }
        String scheme = parsed.getScheme() == null ? "" : parsed.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new IllegalArgumentException("milvus uri must start with http:// or https://, was " + uri);
        }
        if (parsed.getHost() == null) {
            throw new IllegalArgumentException("milvus uri has no host: " + uri);
        }
        token = token == null || token.isBlank() ? null : token.strip();
        database = database == null || database.isBlank() ? null : database.strip();
    }

    /**
     * The text with the token taken out: the token, the form the SDK sends it in (base64)
     * and, for a {@code user:password} token, a password of 4 or more characters each
     * become {@code ***}. For the messages that quote a server or the SDK: a server may
     * echo what it was sent (Milvus 2.2 named the user and password it refused).
     */
    public String redact(String text) {
        if (token == null || text == null) {
            return text;
        }
        String out = text.replace(token, "***")
            .replace(Base64.getEncoder().encodeToString(token.getBytes(StandardCharsets.UTF_8)), "***");
        int colon = token.indexOf(':');
        String password = colon < 0 ? "" : token.substring(colon + 1);
        return password.length() >= 4 ? out.replace(password, "***") : out;
    }

    public static MilvusSettings of(String uri) {
        return new MilvusSettings(uri, null, null);
    }

    /** Never prints the token: settings end up in logs and error messages. */
    @Override
    public String toString() {
        return "MilvusSettings[uri=" + uri + ", token=" + (token == null ? "none" : "***") + ", database="
                + (database == null ? "default" : database) + "]";
    }
}

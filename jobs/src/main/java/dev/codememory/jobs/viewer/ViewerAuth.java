package dev.codememory.jobs.viewer;

import dev.codememory.config.home.CodeMemoryHome;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Who may use the viewer: whoever can read the home. The home holds a secret
 * ({@code viewer.secret}, owner-only, made on first use); {@code viewer} asks serve over
 * its owner-only socket for a sign-in address carrying a one-time token (random, used
 * once, valid {@link #TOKEN_LIFETIME}); the browser trades it for a session cookie
 * ({@code <id>.<HMAC(secret, id)>}, HttpOnly, SameSite=Strict), which stays valid across
 * serve restarts until the secret file is deleted. Each session's CSRF token is an HMAC
 * of its id under the same secret, so nothing but the one-time tokens is kept in memory.
 */
final class ViewerAuth {

    static final String SECRET_FILE = "viewer.secret";

    static final Duration TOKEN_LIFETIME = Duration.ofMinutes(5);

    private static final SecureRandom RANDOM = new SecureRandom();

    private final byte[] secret;

    private final String cookieName;

    private final Map<String, Instant> tokens = new ConcurrentHashMap<>();

    private ViewerAuth(byte[] secret, String cookieName) {
        this.secret = secret;
        this.cookieName = cookieName;
    }

    /**
     * The home's secret, made owner-only on first use; the cookie is named for the home,
     * so the viewers of two homes on one machine do not sign each other out (a browser
     * keeps cookies per host, not per port).
     */
    static ViewerAuth forHome(CodeMemoryHome home) throws IOException {
        Path file = home.root().resolve(SECRET_FILE);
        if (!Files.exists(file)) {
            CodeMemoryHome.createPrivateFile(file);
            Files.writeString(file, random(32) + "\n", StandardCharsets.US_ASCII);
        }
        byte[] secret = Files.readString(file, StandardCharsets.US_ASCII).strip().getBytes(StandardCharsets.US_ASCII);
        if (secret.length < 32) {
            throw new IOException(file + " holds no usable secret: delete it and start serve again");
        }
        String id = hex(sha256(home.root().toAbsolutePath().toString().getBytes(StandardCharsets.UTF_8))).substring(0,
                8);
        return new ViewerAuth(secret, "code_memory_" + id);
    }

    String cookieName() {
        return cookieName;
    }

    /** A new one-time sign-in token. */
    String newToken() {
        Instant now = Instant.now();
        tokens.values().removeIf(expiry -> expiry.isBefore(now));
        String token = random(24);
        tokens.put(token, now.plus(TOKEN_LIFETIME));
        return token;
    }

    /**
     * Trades a one-time token for a session cookie value; empty when unknown, used or
     * expired.
     */
    Optional<String> exchange(String token) {
        Instant expiry = token == null ? null : tokens.remove(token);
        if (expiry == null || expiry.isBefore(Instant.now())) {
            return Optional.empty();
        }
        String id = random(18);
        return Optional.of(id + "." + mac("session:" + id));
    }

    /** Whether a cookie value is one this home's secret signed. */
    boolean valid(String cookie) {
        return session(cookie).isPresent();
    }

    /** The CSRF token of the session a cookie holds. */
    String csrf(String cookie) {
        return session(cookie).map(id -> mac("csrf:" + id)).orElseThrow();
    }

    /** Whether {@code token} is the CSRF token of the session {@code cookie} holds. */
    boolean csrfMatches(String cookie, String token) {
        return token != null && session(cookie)
            .map(id -> MessageDigest.isEqual(mac("csrf:" + id).getBytes(StandardCharsets.US_ASCII),
                    token.getBytes(StandardCharsets.US_ASCII)))
            .orElse(false);
    }

    private Optional<String> session(String cookie) {
        if (cookie == null) {
            return Optional.empty();
        }
        int dot = cookie.indexOf('.');
        if (dot <= 0) {
            return Optional.empty();
        }
        String id = cookie.substring(0, dot);
        byte[] given = cookie.substring(dot + 1).getBytes(StandardCharsets.US_ASCII);
        return MessageDigest.isEqual(mac("session:" + id).getBytes(StandardCharsets.US_ASCII), given) ? Optional.of(id)
                : Optional.empty();
    }

    private String mac(String message) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            return Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString(mac.doFinal(message.getBytes(StandardCharsets.UTF_8)));
        }
        catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }

    private static String random(int bytes) {
        byte[] b = new byte[bytes];
        RANDOM.nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }

    private static byte[] sha256(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(data);
        }
        catch (GeneralSecurityException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    private static String hex(byte[] bytes) {
        StringBuilder s = new StringBuilder();
        for (byte b : bytes) {
            s.append(String.format("%02x", b));
        }
        return s.toString();
    }

}

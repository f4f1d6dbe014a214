package dev.codememory.processors.query;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * The short handle of a memory, {@code mem:} + the first 6 characters of the URL-safe base64 (no padding) of the
 * SHA-256 of its id: deterministic, 36 bits, safe in URLs and Markdown. Collisions are resolved by a later step.
 */
public final class Citation {

    public static final String PREFIX = "mem:";

    private Citation() {
    }

    public static String of(String memoryId) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(memoryId.getBytes(StandardCharsets.UTF_8));
            return PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(digest).substring(0, 6);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }
}

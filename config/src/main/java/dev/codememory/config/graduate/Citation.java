package dev.codememory.config.graduate;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * The short handle of a memory, {@code mem:} + the first 6 characters of the URL-safe
 * base64 (no padding) of the SHA-256 of its id: deterministic, 36 bits, safe in URLs and
 * Markdown. This is the code a memory claims first; the stored citation
 * ({@code citations} table, assigned by {@code writers…citation.DuckDbCitationWriter} in
 * SQL) is the one that counts, because a memory whose code is taken falls back to
 * {@link #of(String, int) round n}.
 */
public final class Citation {

    public static final String PREFIX = "mem:";

    private Citation() {
    }

    public static String of(String memoryId) {
        return of(memoryId, 0);
    }

    /**
     * The code a memory claims in collision round n: the SHA-256 of
     * {@code memoryId + "#" + n} for n > 0.
     */
    public static String of(String memoryId, int round) {
        String input = round == 0 ? memoryId : memoryId + "#" + round;
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(input.getBytes(StandardCharsets.UTF_8));
            return PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(digest).substring(0, 6);
        }
        catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }

}

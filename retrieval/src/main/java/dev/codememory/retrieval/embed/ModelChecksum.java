package dev.codememory.retrieval.embed;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;

/**
 * SHA-256 checks for model files, so a corrupt or swapped model fails at start-up instead
 * of embedding garbage.
 */
final class ModelChecksum {

    private ModelChecksum() {
    }

    static String sha256(byte[] content) {
        return HexFormat.of().formatHex(digest().digest(content));
    }

    static String sha256(Path file) {
        MessageDigest digest = digest();
        byte[] buffer = new byte[1 << 16];
        try (InputStream in = Files.newInputStream(file)) {
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                digest.update(buffer, 0, n);
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    static boolean matches(Path file, String expectedSha256) {
        return sha256(file).equals(expectedSha256.toLowerCase(Locale.ROOT));
    }

    /**
     * Throws {@link EmbeddingException} naming the file and both digests unless the
     * content has the expected one.
     */
    static void verify(byte[] content, String expectedSha256, String name) {
        requireMatch(sha256(content), expectedSha256, name);
    }

    static void verify(Path file, String expectedSha256) {
        verify(file, expectedSha256, file.toString());
    }

    static void verify(Path file, String expectedSha256, String name) {
        requireMatch(sha256(file), expectedSha256, name);
    }

    private static void requireMatch(String actual, String expected, String name) {
        if (!actual.equals(expected.toLowerCase(Locale.ROOT))) {
            throw new EmbeddingException("SHA-256 mismatch for " + name + ": expected " + expected + " but was "
                    + actual + "; the model file is corrupt or not the pinned version");
        }
    }

    private static MessageDigest digest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        }
        catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM must provide SHA-256", e);
        }
    }

}

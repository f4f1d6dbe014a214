package dev.codememory.retrieval.embed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ModelChecksumTests {

    /** SHA-256 of "abc" (FIPS 180-2 test vector). */
    private static final String ABC = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";

    private static final String EMPTY = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

    @TempDir
    Path dir;

    @Test
    void computesTheSha256OfAFile() throws IOException {
        Path file = Files.writeString(dir.resolve("model.onnx"), "abc", StandardCharsets.US_ASCII);

        assertThat(ModelChecksum.sha256(file)).isEqualTo(ABC);
        assertThat(ModelChecksum.sha256(new byte[0])).isEqualTo(EMPTY);
    }

    @Test
    void acceptsAFileWithTheExpectedDigestInEitherCase() throws IOException {
        Path file = Files.writeString(dir.resolve("model.onnx"), "abc", StandardCharsets.US_ASCII);

        assertThatCode(() -> ModelChecksum.verify(file, ABC)).doesNotThrowAnyException();
        assertThatCode(() -> ModelChecksum.verify(file, ABC.toUpperCase())).doesNotThrowAnyException();
    }

    @Test
    void rejectsAFileWithAnotherDigestNamingTheFileAndBothDigests() throws IOException {
        Path file = Files.writeString(dir.resolve("model.onnx"), "abd", StandardCharsets.US_ASCII);
        String actual = ModelChecksum.sha256(file);

        assertThat(actual).isNotEqualTo(ABC);
        assertThatThrownBy(() -> ModelChecksum.verify(file, ABC)).isInstanceOf(EmbeddingException.class)
            .hasMessage("SHA-256 mismatch for " + file + ": expected " + ABC + " but was " + actual
                    + "; the model file is corrupt or not the pinned version");
    }

    @Test
    void rejectsContentWithOneByteChanged() {
        byte[] content = "abc".getBytes(StandardCharsets.US_ASCII);
        content[2] ^= 1;

        assertThatThrownBy(() -> ModelChecksum.verify(content, ABC, MiniLmOnnxEmbedder.MODEL_RESOURCE))
            .isInstanceOf(EmbeddingException.class)
            .hasMessageStartingWith("SHA-256 mismatch for all-minilm-l6-v2-q.onnx: expected " + ABC + " but was ");
    }

}

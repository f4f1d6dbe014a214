package dev.codememory.retrieval.vector.milvus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class MilvusSettingsTests {

    @Test
    void needsOnlyTheUri() {
        MilvusSettings settings = MilvusSettings.of("http://localhost:19530");

        assertThat(settings.uri()).isEqualTo("http://localhost:19530");
        assertThat(settings.token()).isNull();
        assertThat(settings.database()).isNull();
    }

    @Test
    void trimsValuesAndTreatsBlankTokenAndDatabaseAsAbsent() {
        MilvusSettings blank = new MilvusSettings("  https://milvus.example.com:443 ", " ", "");
        MilvusSettings full = new MilvusSettings("http://10.0.0.5:19530", " root:Milvus ", " memories ");

        assertThat(blank.uri()).isEqualTo("https://milvus.example.com:443");
        assertThat(blank.token()).isNull();
        assertThat(blank.database()).isNull();
        assertThat(full.token()).isEqualTo("root:Milvus");
        assertThat(full.database()).isEqualTo("memories");
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = { "   " })
    void rejectsAMissingUriNamingTheSetting(String uri) {
        assertThatIllegalArgumentException().isThrownBy(() -> new MilvusSettings(uri, null, null))
            .withMessage("milvus uri is required, e.g. http://localhost:19530");
    }

    @ParameterizedTest
    @ValueSource(strings = { "localhost:19530", "tcp://localhost:19530", "grpc://localhost:19530" })
    void rejectsAUriThatIsNotHttp(String uri) {
        assertThatIllegalArgumentException().isThrownBy(() -> MilvusSettings.of(uri))
            .withMessage("milvus uri must start with http:// or https://, was " + uri);
    }

    @Test
    void rejectsAUriWithoutHost() {
        assertThatIllegalArgumentException().isThrownBy(() -> MilvusSettings.of("http:///19530"))
            .withMessage("milvus uri has no host: http:///19530");
    }

    @Test
    void rejectsTextThatIsNotAUri() {
        assertThatIllegalArgumentException().isThrownBy(() -> MilvusSettings.of("http://local host:19530"))
            .withMessage("milvus uri is not a URI: http://local host:19530");
    }

    @Test
    void neverPrintsTheToken() {
        assertThat(new MilvusSettings("http://localhost:19530", "root:s3cret", null))
            .hasToString("MilvusSettings[uri=http://localhost:19530, token=***, database=default]");
        assertThat(new MilvusSettings("http://localhost:19530", null, "memories"))
            .hasToString("MilvusSettings[uri=http://localhost:19530, token=none, database=memories]");
    }

    @Test
    void redactsTheTokenItsBase64FormAndALongEnoughPassword() {
        MilvusSettings settings = new MilvusSettings("http://localhost:19530", "root:s3cret", null);

        assertThat(settings.redact("sent root:s3cret as cm9vdDpzM2NyZXQ=; password: s3cret"))
            .isEqualTo("sent *** as ***; password: ***");
        assertThat(new MilvusSettings("http://localhost:19530", "root:abc", null).redact("root:abc, abc"))
            .as("a password under 4 characters is masked only within the token")
            .isEqualTo("***, abc");
        assertThat(MilvusSettings.of("http://localhost:19530").redact("no token")).isEqualTo("no token");
    }

}

package dev.codememory.processors.privacy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RedactorTests {

    private final Redactor redactor = Redactor.defaults();

    private String redact(String text) {
        return redactor.redact(text);
    }

    // ---- rule A: <private> sections ----

    @Test
    void closedTagIsReplacedByPrivateMarker() {
        assertThat(redact("my ssn is <private>123-45-6789</private>, ok"))
                .isEqualTo("my ssn is [PRIVATE], ok");
    }

    @Test
    void multilineTagIsReplacedAsOneBlock() {
        assertThat(redact("start\n<private>\nline one\nline two\n</private>\nend"))
                .isEqualTo("start\n[PRIVATE]\nend");
    }

    @Test
    void tagNamesAreCaseInsensitiveAndAllowSpacesBeforeBracket() {
        assertThat(redact("a <PRIVATE>x</Private> b <private >y</private  > c"))
                .isEqualTo("a [PRIVATE] b [PRIVATE] c");
    }

    @Test
    void twoSectionsInOneStringAreBothReplaced() {
        assertThat(redact("<private>one</private> and <private>two</private>!"))
                .isEqualTo("[PRIVATE] and [PRIVATE]!");
    }

    @Test
    void emptyTagVanishesWithoutLeavingDoubleSpace() {
        assertThat(redact("hello <private></private> world")).isEqualTo("hello world");
        assertThat(redact("hello<private></private> world")).isEqualTo("hello world");
        assertThat(redact("a <private></private> <private></private> b")).isEqualTo("a b");
    }

    @Test
    void whitespaceOnlyTagVanishes() {
        assertThat(redact("hello <private> \n </private> world")).isEqualTo("hello world");
        assertThat(redact("line\n<private>\t</private>\nnext")).isEqualTo("line\n\nnext");
    }

    @Test
    void nestedTagRedactsWholeOuterBlock() {
        assertThat(redact("<private>a <private>b</private> rest</private> tail")).isEqualTo("[PRIVATE] tail");
    }

    @Test
    void unclosedTagRedactsToEndOfText() {
        assertThat(redact("before <private>secret\nmore secret")).isEqualTo("before [PRIVATE]");
    }

    @Test
    void unclosedNestedTagRedactsToEndOfText() {
        assertThat(redact("x <private>a <private>b</private> still private")).isEqualTo("x [PRIVATE]");
    }

    @Test
    void strayCloseTagStaysLiteral() {
        assertThat(redact("just a </private> here")).isEqualTo("just a </private> here");
        assertThat(redact("</private> then <private>s</private>")).isEqualTo("</private> then [PRIVATE]");
    }

    @Test
    void tagInsideBacktickFencedBlockStaysLiteral() {
        String text = "docs:\n```xml\n<private>example</private>\n```\nreal <private>s</private>";
        assertThat(redact(text)).isEqualTo("docs:\n```xml\n<private>example</private>\n```\nreal [PRIVATE]");
    }

    @Test
    void tagInsideIndentedFenceWithLongerCloserStaysLiteral() {
        String text = "  ````\n<private>x</private>\n```\n  `````\nafter <private>y</private>";
        assertThat(redact(text)).isEqualTo("  ````\n<private>x</private>\n```\n  `````\nafter [PRIVATE]");
    }

    @Test
    void tagInsideTildeFenceStaysLiteral() {
        String text = "~~~\n<private>example</private>\n~~~\n<private>s</private>";
        assertThat(redact(text)).isEqualTo("~~~\n<private>example</private>\n~~~\n[PRIVATE]");
    }

    @Test
    void tildeFenceIsNotClosedByBacktickFence() {
        assertThat(redact("~~~\n```\n<private>x</private>\n"))
                .isEqualTo("~~~\n```\n[PRIVATE]\n");
    }

    @Test
    void tagInsideInlineCodeStaysLiteral() {
        assertThat(redact("use `like <private>this</private>` to hide, e.g. <private>pw</private>"))
                .isEqualTo("use `like <private>this</private>` to hide, e.g. [PRIVATE]");
    }

    @Test
    void inlineCodeNeedsMatchingBacktickRunLength() {
        assertThat(redact("``a ` <private>x</private> ``")).isEqualTo("``a ` <private>x</private> ``");
        assertThat(redact("``a <private>x</private> `")).isEqualTo("``a [PRIVATE] `");
    }

    @Test
    void inlineCodeDoesNotSpanLines() {
        assertThat(redact("`open\n<private>x</private> `")).isEqualTo("`open\n[PRIVATE] `");
    }

    @Test
    void unclosedFenceDoesNotProtect() {
        assertThat(redact("```\n<private>secret</private>\nno closing fence"))
                .isEqualTo("```\n[PRIVATE]\nno closing fence");
    }

    @Test
    void privateSectionContainingFenceIsFullyRedacted() {
        assertThat(redact("<private>\n```\nsecret\n```\n</private> end")).isEqualTo("[PRIVATE] end");
        // inside a private section a fence does not hide the closing tag
        assertThat(redact("<private>\n```\n</private>\n```")).isEqualTo("[PRIVATE]\n```");
    }

    @Test
    void privateSectionContainingBackticksIsFullyRedacted() {
        assertThat(redact("<private>a `</private>` b")).isEqualTo("[PRIVATE]` b");
    }

    @Test
    void koreanTextAroundPrivateTagIsPreserved() {
        assertThat(redact("안녕 <private>비밀</private> 세계")).isEqualTo("안녕 [PRIVATE] 세계");
    }

    // ---- rule B: secret shapes ----

    @Test
    void openAiAndAnthropicKeysAreRedacted() {
        assertThat(redact("key sk-abcdefghijklmnopqrstuvwx1234 here"))
                .isEqualTo("key [REDACTED] here");
        assertThat(redact("OPENAI=sk-proj-AbC_dEf-1234567890abcdefXYZ"))
                .isEqualTo("OPENAI=[REDACTED]");
        assertThat(redact("export ANTHROPIC=\"sk-ant-api03-abcDEF123456_ghiJKL-7890mnop\""))
                .isEqualTo("export ANTHROPIC=\"[REDACTED]\"");
    }

    @Test
    void shortSkPrefixIsNotRedacted() {
        assertThat(redact("sk-short and task-1234 and desk-abcdefghijklmnopqrstuvwxyz"))
                .isEqualTo("sk-short and task-1234 and desk-abcdefghijklmnopqrstuvwxyz");
    }

    @Test
    void awsAccessKeyIdsAreRedacted() {
        assertThat(redact("id AKIAIOSFODNN7EXAMPLE and ASIAABCDEFGHIJKLMNOP."))
                .isEqualTo("id [REDACTED] and [REDACTED].");
    }

    @Test
    void awsLookalikesThatAreNotWordBoundedAreKept() {
        assertThat(redact("XAKIAIOSFODNN7EXAMPLE AKIAIOSFODNN7EXAMPLEX AKIAshort"))
                .isEqualTo("XAKIAIOSFODNN7EXAMPLE AKIAIOSFODNN7EXAMPLEX AKIAshort");
    }

    @Test
    void githubTokensAreRedacted() {
        assertThat(redact("ghp_abcdefghijklmnopqrstuvwxyz0123456789 gho_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123"))
                .isEqualTo("[REDACTED] [REDACTED]");
        assertThat(redact("pat github_pat_11ABCDEFG0123456789_abcdefghijklmnop end"))
                .isEqualTo("pat [REDACTED] end");
    }

    @Test
    void slackTokensAreRedacted() {
        assertThat(redact("slack xoxb-1234567890-abcdefghij done"))
                .isEqualTo("slack [REDACTED] done");
        assertThat(redact("xoxp-123 is too short")).isEqualTo("xoxp-123 is too short");
    }

    @Test
    void pemPrivateKeyBlockIsRedacted() {
        String text = "key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\nabc+/=\n"
                + "-----END RSA PRIVATE KEY-----\nafter";
        assertThat(redact(text)).isEqualTo("key:\n[REDACTED]\nafter");
        assertThat(redact("-----BEGIN PRIVATE KEY-----\nAAA\n-----END PRIVATE KEY-----"))
                .isEqualTo("[REDACTED]");
        assertThat(redact("x -----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbn\n-----END OPENSSH PRIVATE KEY----- y"))
                .isEqualTo("x [REDACTED] y");
        assertThat(redact("-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAA\n-----END ENCRYPTED PRIVATE KEY-----\n"))
                .isEqualTo("[REDACTED]\n");
    }

    @Test
    void unclosedPemPrivateKeyRedactsToEnd() {
        assertThat(redact("see\n-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIB\ntruncated"))
                .isEqualTo("see\n[REDACTED]");
    }

    @Test
    void pemPublicKeyAndCertificateAreKept() {
        String text = "-----BEGIN PUBLIC KEY-----\nMFkw\n-----END PUBLIC KEY-----";
        assertThat(redact(text)).isEqualTo(text);
    }

    @Test
    void bearerTokenIsRedactedKeepingTheWord() {
        assertThat(redact("Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc-_def"))
                .isEqualTo("Authorization: Bearer [REDACTED]");
        assertThat(redact("curl -H 'authorization: bearer abcdefgh12345678'"))
                .isEqualTo("curl -H 'authorization: bearer [REDACTED]'");
        assertThat(redact("Bearer short")).isEqualTo("Bearer short");
    }

    @Test
    void passwordAssignmentKeepsKeyAndSeparator() {
        assertThat(redact("password=hunter2")).isEqualTo("password=[REDACTED]");
        assertThat(redact("db passwd: s3cr3t; next")).isEqualTo("db passwd: [REDACTED]; next");
        assertThat(redact("TOKEN = 'xyz'")).isEqualTo("TOKEN = '[REDACTED]'");
        assertThat(redact("url?access_token=abc123&x=1")).isEqualTo("url?access_token=[REDACTED]&x=1");
    }

    @Test
    void jsonStyleAssignmentKeepsQuotes() {
        assertThat(redact("{\"api_key\": \"abc123\", \"name\": \"demo\"}"))
                .isEqualTo("{\"api_key\": \"[REDACTED]\", \"name\": \"demo\"}");
        assertThat(redact("{'client_secret':'s3cr3t'}")).isEqualTo("{'client_secret':'[REDACTED]'}");
    }

    @Test
    void quotedAssignmentValueIsRedactedUpToClosingQuote() {
        assertThat(redact("password: \"correct horse battery\" ok"))
                .isEqualTo("password: \"[REDACTED]\" ok");
    }

    @Test
    void everyAssignmentKeyWordIsRecognised() {
        String[] keys = {"password", "passwd", "pwd", "secret", "client_secret", "token", "access_token",
                "refresh_token", "auth_token", "api_key", "api-key", "apikey", "access_key", "secret_key",
                "private_key", "API_KEY", "Secret"};
        for (String key : keys) {
            assertThat(redact(key + "=v4lue")).as(key).isEqualTo(key + "=[REDACTED]");
        }
    }

    @Test
    void environmentStyleKeysWithPrefixAreRedacted() {
        assertThat(redact("DB_PASSWORD=pw1 GITHUB_TOKEN=abc x-api-key: k3y"))
                .isEqualTo("DB_PASSWORD=[REDACTED] GITHUB_TOKEN=[REDACTED] x-api-key: [REDACTED]");
    }

    @Test
    void lookalikeKeysAreNotRedacted() {
        String text = "author=alice keyword=java tokenizer=bpe skeleton=yes task-1234 max_tokens=100";
        assertThat(redact(text)).isSameAs(text);
    }

    @Test
    void alreadyRedactedOrEmptyValuesAreLeftAlone() {
        assertThat(redact("password=[REDACTED] token: [PRIVATE] secret=\"\" pwd= \n"))
                .isEqualTo("password=[REDACTED] token: [PRIVATE] secret=\"\" pwd= \n");
        assertThat(redact("token=<private>abc</private>")).isEqualTo("token=[PRIVATE]");
        assertThat(redact("{\"token\": \"[REDACTED]\"}")).isEqualTo("{\"token\": \"[REDACTED]\"}");
    }

    @Test
    void comparisonsAreNotTreatedAsAssignments() {
        String text = "if (token == null || token != other) return;";
        assertThat(redact(text)).isSameAs(text);
    }

    @Test
    void secretsInsideKeyShapesAreRedactedOnce() {
        assertThat(redact("api_key=sk-abcdefghijklmnopqrstuvwxyz"))
                .isEqualTo("api_key=[REDACTED]");
    }

    @Test
    void secretInsideCodeBlockIsRedacted() {
        String text = "```bash\nexport API_KEY=abc123\ncurl -H \"Authorization: Bearer abcdefgh12345\"\n```";
        assertThat(redact(text))
                .isEqualTo("```bash\nexport API_KEY=[REDACTED]\ncurl -H \"Authorization: Bearer [REDACTED]\"\n```");
        assertThat(redact("run `password=hunter2` now")).isEqualTo("run `password=[REDACTED]` now");
    }

    @Test
    void privateTagAndSecretsCombine() {
        assertThat(redact("<private>mine</private> password=pw `<private>kept</private>`"))
                .isEqualTo("[PRIVATE] password=[REDACTED] `<private>kept</private>`");
    }

    // ---- general ----

    @Test
    void nullReturnsNull() {
        assertThat(redact(null)).isNull();
    }

    @Test
    void textWithoutMatchesIsReturnedUnchanged() {
        String text = "Plain text with a <div>tag</div>, `code`, ```fence``` and 안녕 세계.\n  indented\ttab";
        assertThat(redact(text)).isSameAs(text);
        assertThat(redact("")).isEqualTo("");
    }

    @Test
    void twoMebibyteInputWithTagAtEndIsRedacted() {
        String filler = "lorem ipsum `x` dolor sit amet, consectetur = adipiscing: elit\n".repeat(2 * 1024 * 1024 / 64);
        String result = redact(filler + "<private>tail secret</private>");
        assertThat(result).hasSize(filler.length() + Redactor.PRIVATE_MARKER.length());
        assertThat(result).startsWith(filler).endsWith("\n[PRIVATE]");
    }

    @Test
    void twoMebibyteOfSecretLookalikesIsReturnedUnchanged() {
        String chunk = "sk-x sk-abc AKIA12 ghp_x xoxb- Bearer ab -----BEGIN RSA PUBLIC KEY----- token=\npassword: ,\n";
        String text = chunk.repeat(2 * 1024 * 1024 / chunk.length() + 1);
        assertThat(redact(text)).isSameAs(text);
    }

    @Test
    void longLineOfUnmatchedBacktickRunsIsScannedLinearly() {
        StringBuilder sb = new StringBuilder();
        for (int len = 1; len <= 1500; len++) {
            sb.append("`".repeat(len)).append('a');
        }
        String line = sb.toString();
        assertThat(redact(line + "<private>x</private>")).isEqualTo(line + "[PRIVATE]");
    }

    @Test
    void manyUnclosedFencesComplete() {
        String lines = "````info\n```\n".repeat(2 * 1024 * 1024 / 13);
        String text = lines + "``` `` <private>x</private>";
        assertThat(redact(text)).isEqualTo(lines + "``` `` [PRIVATE]");
    }
}

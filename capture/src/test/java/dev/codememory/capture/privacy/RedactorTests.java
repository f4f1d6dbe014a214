package dev.codememory.capture.privacy;

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
        assertThat(redact("my ssn is <private>123-45-6789</private>, ok")).isEqualTo("my ssn is [PRIVATE], ok");
    }

    @Test
    void multilineTagIsReplacedAsOneBlock() {
        assertThat(redact("start\n<private>\nline one\nline two\n</private>\nend")).isEqualTo("start\n[PRIVATE]\nend");
    }

    @Test
    void tagNamesAreCaseInsensitiveAndAllowSpacesBeforeBracket() {
        assertThat(redact("a <PRIVATE>x</Private> b <private >y</private  > c")).isEqualTo("a [PRIVATE] b [PRIVATE] c");
    }

    @Test
    void twoSectionsInOneStringAreBothReplaced() {
        assertThat(redact("<private>one</private> and <private>two</private>!")).isEqualTo("[PRIVATE] and [PRIVATE]!");
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
        assertThat(redact("~~~\n```\n<private>x</private>\n")).isEqualTo("~~~\n```\n[PRIVATE]\n");
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
        assertThat(redact("key sk-abcdefghijklmnopqrstuvwx1234 here")).isEqualTo("key [REDACTED] here");
        assertThat(redact("OPENAI=sk-proj-AbC_dEf-1234567890abcdefXYZ")).isEqualTo("OPENAI=[REDACTED]");
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
        assertThat(redact("pat github_pat_11ABCDEFG0123456789_abcdefghijklmnop end")).isEqualTo("pat [REDACTED] end");
    }

    @Test
    void slackTokensAreRedacted() {
        assertThat(redact("slack xoxb-1234567890-abcdefghij done")).isEqualTo("slack [REDACTED] done");
        assertThat(redact("xoxp-123 is too short")).isEqualTo("xoxp-123 is too short");
    }

    @Test
    void pemPrivateKeyBlockIsRedacted() {
        String text = "key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\nabc+/=\n"
                + "-----END RSA PRIVATE KEY-----\nafter";
        assertThat(redact(text)).isEqualTo("key:\n[REDACTED]\nafter");
        assertThat(redact("-----BEGIN PRIVATE KEY-----\nAAA\n-----END PRIVATE KEY-----")).isEqualTo("[REDACTED]");
        assertThat(redact("x -----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbn\n-----END OPENSSH PRIVATE KEY----- y"))
            .isEqualTo("x [REDACTED] y");
        assertThat(redact("-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAA\n-----END ENCRYPTED PRIVATE KEY-----\n"))
            .isEqualTo("[REDACTED]\n");
    }

    @Test
    void unclosedPemPrivateKeyRedactsToEnd() {
        assertThat(redact("see\n-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIB\ntruncated")).isEqualTo("see\n[REDACTED]");
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
        assertThat(redact("password: \"correct horse battery\" ok")).isEqualTo("password: \"[REDACTED]\" ok");
    }

    @Test
    void everyAssignmentKeyWordIsRecognised() {
        String[] keys = { "password", "passwd", "pwd", "secret", "client_secret", "token", "access_token",
                "refresh_token", "auth_token", "api_key", "api-key", "apikey", "access_key", "secret_key",
                "private_key", "API_KEY", "Secret" };
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
        assertThat(redact("api_key=sk-abcdefghijklmnopqrstuvwxyz")).isEqualTo("api_key=[REDACTED]");
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

    // ---- shapes seen in real transcripts ----

    @Test
    void defaultOfAnEnvironmentLookupIsMaskedNotTheLookup() {
        assertThat(redact("neo4j_password: System.get_env(\"NEO4J_PASSWORD\", \"Quokka-Lantern-8814\")"))
            .isEqualTo("neo4j_password: System.get_env(\"NEO4J_PASSWORD\", \"[REDACTED]\")");
        assertThat(redact("password = os.getenv('X_PASSWORD', 'zebra-5521')"))
            .isEqualTo("password = os.getenv('X_PASSWORD', '[REDACTED]')");
        assertThat(redact("const token = process.env.X_TOKEN || \"abc123def456\";"))
            .isEqualTo("const token = process.env.X_TOKEN || \"[REDACTED]\";");
        assertThat(redact("POSTGRES_PASSWORD: ${DB_PASSWORD:-s3cr3t-default}"))
            .isEqualTo("POSTGRES_PASSWORD: ${DB_PASSWORD:-[REDACTED]}");
        assertThat(redact("url: ${DB_PASSWORD:s3cr3t}")).isEqualTo("url: ${DB_PASSWORD:[REDACTED]}");
        assertThat(redact("export API_KEY=${API_KEY:?API_KEY must be set}"))
            .isEqualTo("export API_KEY=${API_KEY:?API_KEY must be set}");
    }

    @Test
    void jsonHeldAsAnEscapedStringInsideAnotherStringIsMasked() {
        assertThat(redact("{\\\"NEO4J_PASSWORD\\\": \\\"Quokka-Lantern-8814\\\", \\\"host\\\": \\\"db\\\"}"))
            .isEqualTo("{\\\"NEO4J_PASSWORD\\\": \\\"[REDACTED]\\\", \\\"host\\\": \\\"db\\\"}");
        assertThat(redact("{\"NEO4J_PASSWORD\": \"Quokka-Lantern-8814\"}"))
            .isEqualTo("{\"NEO4J_PASSWORD\": \"[REDACTED]\"}");
    }

    @Test
    void credentialsLineKeepsTheUser() {
        assertThat(redact("Credentials: neo4j/Quokka-Lantern-8814")).isEqualTo("Credentials: neo4j/[REDACTED]");
        assertThat(redact("creds = admin:hunter2")).isEqualTo("creds = admin:[REDACTED]");
    }

    @Test
    void connectionStringsKeepUserAndHost() {
        assertThat(redact("postgres://admin:Sup3rS3cret@db.example.com:5432/app"))
            .isEqualTo("postgres://admin:[REDACTED]@db.example.com:5432/app");
        assertThat(redact("mongodb+srv://user:pa55word@cluster0.abcde.mongodb.net/test"))
            .isEqualTo("mongodb+srv://user:[REDACTED]@cluster0.abcde.mongodb.net/test");
        assertThat(redact("REDIS_URL=redis://:hunter2pw@localhost:6379"))
            .isEqualTo("REDIS_URL=redis://:[REDACTED]@localhost:6379");
        assertThat(redact("Server=tcp:db;Database=x;User Id=sa;Password=hunter;"))
            .isEqualTo("Server=tcp:db;Database=x;User Id=sa;Password=[REDACTED];");
        assertThat(redact("postgres://user:${DB_PASSWORD}@db/app")).isEqualTo("postgres://user:${DB_PASSWORD}@db/app");
    }

    @Test
    void keyValueFormsMaskTheValueAndKeepTheKey() {
        assertThat(redact("DB_PASSWORD=\"zebra-fence-5521\"")).isEqualTo("DB_PASSWORD=\"[REDACTED]\"");
        assertThat(redact("  db_password: zebra")).isEqualTo("  db_password: [REDACTED]");
        assertThat(redact("password = \"hunter2\"")).isEqualTo("password = \"[REDACTED]\"");
        assertThat(redact("<dbPassword>hunter2</dbPassword>")).isEqualTo("<dbPassword>[REDACTED]</dbPassword>");
        assertThat(redact("api_token: |\n  8f1c2d3e4f5a6b7c8d9e")).isEqualTo("api_token: |\n  [REDACTED]");
        assertThat(redact("var apiToken string = \"8f1c2d3e4f5a\"")).isEqualTo("var apiToken string = \"[REDACTED]\"");
        assertThat(redact("API_TOKEN ::= \"8f1c2d3e4f5a\"")).isEqualTo("API_TOKEN ::= \"[REDACTED]\"");
        assertThat(redact("password: str = \"hunter2\"")).isEqualTo("password: str = \"[REDACTED]\"");
        assertThat(redact("user.setPassword(\"s3cr3tpw\");")).isEqualTo("user.setPassword(\"[REDACTED]\");");
        assertThat(redact("machine api.example.com login me password hunter2"))
            .isEqualTo("machine api.example.com login me password [REDACTED]");
        assertThat(redact("curl -u admin:hunter2 https://x")).isEqualTo("curl -u admin:[REDACTED] https://x");
    }

    @Test
    void providerTokensAreMaskedWhereverTheyStand() {
        String[] tokens = { "sk-ant-api03-" + "a1B2c3D4e5".repeat(9) + "xyzAA", "AKIAIOSFODNN7EXAMPLE",
                "ghp_" + "a1B2c3D4e5".repeat(3) + "f6G7h8", "glpat-a1B2c3D4e5f6G7h8i9J0", "xoxb-1234567890-abcdefghij",
                "sk_live_" + "a1B2c3D4e5".repeat(3),
                "SG." + "a1B2c3D4e5f6G7h8i9J0kL" + "." + "a1B2c3D4e5".repeat(4) + "abc",
                "npm_" + "a1B2c3D4e5".repeat(3) + "f6G7h8", "hf_" + "aBcDeFgHiJ".repeat(3) + "kLmN",
                "dckr_pat_a1B2c3D4e5f6G7h8i9J0kL1m2N3", "AIza" + "a1B2c3D4e5".repeat(3) + "f6G7h",
                "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U" };
        for (String token : tokens) {
            assertThat(redact("see " + token + " here")).as(token).isEqualTo("see [REDACTED] here");
        }
    }

    @Test
    void ordinaryCodeSurvives() {
        String[] lines = { "def verify(self, secret: str) -> bool:", "    password: str", "    token: Token",
                "    password = getpass()", "    if token is None:", "    secret_key = os.environ[\"SECRET_KEY\"]",
                "max_tokens=4096", "tokenizer = AutoTokenizer.from_pretrained(\"bert\")", "PASSWORD_MIN_LENGTH = 8",
                "\"forgot_password\": \"Forgot password?\",", "token_type: \"bearer\"", "api_key = get_api_key()",
                "headers = {\"Authorization\": f\"Bearer {token}\"}", "password: ${DB_PASSWORD}",
                "token: ${{ secrets.GITHUB_TOKEN }}", "connect(user=user, password=password)",
                "Password: must be at least 8 characters", "We use bearer authentication here.",
                "commit 4f2a9c1e7b3d5a6f8e9c0b1a2d3e4f5a6b7c8d9e", "id 3fa85f64-5717-4562-b3fc-2c963f66afa6",
                "\"integrity\": \"sha512-z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg/SpIdNs6c5H0NE8XYXysP+DGNKHfuwvY7kxvUR9n4y0g0==\"",
                "github.com/pkg/errors v0.9.1 h1:FEBLx1zS214owpjy7qsBeixbURkuhQAwrK5UwLGTwt4=",
                "\"jsonwebtoken\": \"^9.0.2\"", "\"nextPageToken\": \"CAUQAA\"", "primary_key = \"id\"" };
        for (String line : lines) {
            assertThat(redact(line)).as(line).isSameAs(line);
        }
    }

    @Test
    void credentialFileLosesEveryValueAndKeepsItsKeys() {
        String env = "# local settings\nDB_HOST=localhost\nexport PORT=3000\nNEO4J_PASSWORD=\"Quokka-Lantern-8814\"\n\n"
                + "   5\tSTRIPE_KEY=abc\n";
        assertThat(redactor.redactCredentialFile(env)).isEqualTo("# local settings\nDB_HOST=[REDACTED]\n"
                + "export PORT=[REDACTED]\nNEO4J_PASSWORD=\"[REDACTED]\"\n\n   5\tSTRIPE_KEY=[REDACTED]\n");
        assertThat(redactor.redactCredentialFile("machine h login me password pw1\n"))
            .isEqualTo("machine h login [REDACTED] password [REDACTED]\n");
        assertThat(Redactor.isCredentialFile("/repo/.env")).isTrue();
        assertThat(Redactor.isCredentialFile("/repo/.env.production")).isTrue();
        assertThat(Redactor.isCredentialFile("/home/me/.aws/credentials")).isTrue();
        assertThat(Redactor.isCredentialFile("/repo/.env.example")).isFalse();
        assertThat(Redactor.isCredentialFile("/repo/src/env.ts")).isFalse();
    }

    @Test
    void secretNamesAreToldFromLookalikes() {
        for (String name : new String[] { "password", "DB_PASSWORD", "apiKey", "client-secret", "GITHUB_TOKEN",
                "credentials", "x-api-key", "secret_key_base", "accessToken" }) {
            assertThat(Redactor.isSecretName(name)).as(name).isTrue();
        }
        for (String name : new String[] { "max_tokens", "tokenizer", "password_min_length", "nextPageToken",
                "primary_key", "author", "keyword", "tokens", "keys", "input_tokens", "token_type" }) {
            assertThat(Redactor.isSecretName(name)).as(name).isFalse();
        }
    }

    @Test
    void redactedTextIsMadeOnlyByTheRedactor() {
        RedactedText text = redactor.redactToText("token=abc123 <private>x</private>");

        assertThat(text.text()).isEqualTo("token=[REDACTED] [PRIVATE]");
        assertThat(text.toString()).isEqualTo("RedactedText[26 chars]");
        assertThat(redactor.redactToText(null)).isNull();
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

package dev.codememory.capture.spool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.codememory.capture.privacy.Redactor;
import dev.codememory.config.json.Json.JsonNumber;
import dev.codememory.config.json.Json;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SpoolLineBuilderTests {

    private static final Instant RECEIVED = Instant.parse("2025-06-01T10:15:30.123456Z");

    private final SpoolLineBuilder builder = new SpoolLineBuilder(Redactor.defaults(), 2048);

    @Test
    void wrapsAPostToolUseObjectInTheEnvelope() {
        String hook = """
                {"session_id":"s-1","transcript_path":"/t/s-1.jsonl","cwd":"/work/app",\
                "hook_event_name":"PostToolUse","tool_name":"Write",\
                "tool_input":{"file_path":"/work/app/a.txt","content":"hello <private>my ssn</private> bye"},\
                "tool_response":{"success":true}}""";

        SpoolLineBuilder.Line line = builder.build(utf8(hook), RECEIVED, "hook", null);

        assertThat(line.flagged()).isFalse();
        assertThat(line.flaggedReason()).isNull();
        assertThat(line.json()).doesNotContain("\n").doesNotContain("my ssn");
        Map<String, Object> envelope = object(Json.parse(line.json()));
        assertThat(envelope.keySet()).containsExactly("spool", "received_at", "source", "event");
        assertThat(envelope.get("spool")).isEqualTo(new JsonNumber("1"));
        assertThat(envelope.get("received_at")).isEqualTo("2025-06-01T10:15:30.123456Z");
        assertThat(envelope.get("source")).isEqualTo("hook");
        Map<String, Object> event = object(envelope.get("event"));
        assertThat(event.keySet()).containsExactly("session_id", "transcript_path", "cwd", "hook_event_name",
                "tool_name", "tool_input", "tool_response");
        assertThat(event.get("session_id")).isEqualTo("s-1");
        assertThat(event.get("hook_event_name")).isEqualTo("PostToolUse");
        assertThat(event.get("tool_input"))
            .isEqualTo(Map.of("file_path", "/work/app/a.txt", "content", "hello [PRIVATE] bye"));
        assertThat(event.get("tool_response")).isEqualTo(Map.of("success", true));
    }

    @Test
    void redactsPrivateSectionsInArrayElements() {
        String hook = "{\"hook_event_name\":\"PostToolUse\",\"tool_input\":{\"edits\":[\"keep\","
                + "\"a <private>hidden</private> b\",{\"new\":\"<private>deep</private>\"}]}}";

        SpoolLineBuilder.Line line = builder.build(utf8(hook), RECEIVED, "hook", null);

        Map<String, Object> event = object(object(Json.parse(line.json())).get("event"));
        assertThat(event.get("tool_input"))
            .isEqualTo(Map.of("edits", List.of("keep", "a [PRIVATE] b", Map.of("new", "[PRIVATE]"))));
        assertThat(line.json()).doesNotContain("hidden").doesNotContain("deep");
    }

    @Test
    void masksValuesUnderSecretNamedKeysOnly() {
        String hook = """
                {"hook_event_name":"PostToolUse","tool_input":{\
                "password":"hunter2","API_KEY":"abc","client-secret":"xyz","Access_Token":"t0k",\
                "passphrase":"p","credentials":["c1","c2"],"token":"",\
                "author":"alice","keyword":"java","tokens":"1200","keys":"k"}}""";

        SpoolLineBuilder.Line line = builder.build(utf8(hook), RECEIVED, "hook", null);

        Map<String, Object> input = object(object(object(Json.parse(line.json())).get("event")).get("tool_input"));
        assertThat(input).containsExactly(Map.entry("password", "[REDACTED]"), Map.entry("API_KEY", "[REDACTED]"),
                Map.entry("client-secret", "[REDACTED]"), Map.entry("Access_Token", "[REDACTED]"),
                Map.entry("passphrase", "[REDACTED]"), Map.entry("credentials", List.of("[REDACTED]", "[REDACTED]")),
                Map.entry("token", ""), Map.entry("author", "alice"), Map.entry("keyword", "java"),
                Map.entry("tokens", "1200"), Map.entry("keys", "k"));
        assertThat(line.json()).doesNotContain("hunter2", "\"abc\"", "xyz", "t0k", "c1", "c2");
    }

    @Test
    void masksStringsInAnObjectUnderASecretNamedKey() {
        String hook = "{\"hook_event_name\":\"PostToolUse\",\"credentials\":{\"github\":\"gh-secret-value\","
                + "\"aws\":{\"id\":\"aws-secret-value\"}}}";

        SpoolLineBuilder.Line line = builder.build(utf8(hook), RECEIVED, "hook", null);

        Map<String, Object> event = object(object(Json.parse(line.json())).get("event"));
        assertThat(event.get("credentials"))
            .isEqualTo(Map.of("github", "[REDACTED]", "aws", Map.of("id", "[REDACTED]")));
        assertThat(line.json()).doesNotContain("gh-secret-value", "aws-secret-value");
    }

    @Test
    void redactsSecretShapesInFreeText() {
        String hook = "{\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":\"use password=hunter2 and"
                + " sk-abcdefghijklmnopqrstuvwx1234\"}";

        SpoolLineBuilder.Line line = builder.build(utf8(hook), RECEIVED, "hook", null);

        assertThat(object(object(Json.parse(line.json())).get("event")).get("prompt"))
            .isEqualTo("use password=[REDACTED] and [REDACTED]");
    }

    @Test
    void keepsNumbersBooleansAndNullLiterally() {
        String hook = "{\"hook_event_name\":\"PostToolUse\",\"duration_ms\":1.50,\"big\":12345678901234567890123,"
                + "\"exp\":-2E+3,\"zero\":0,\"ok\":true,\"failed\":false,\"error\":null,\"password\":1234}";

        SpoolLineBuilder.Line line = builder.build(utf8(hook), RECEIVED, "hook", null);

        assertThat(line.json()).endsWith(",\"event\":" + hook + "}");
        Map<String, Object> event = object(object(Json.parse(line.json())).get("event"));
        assertThat(event.get("duration_ms")).isEqualTo(new JsonNumber("1.50"));
        assertThat(event.get("big")).isEqualTo(new JsonNumber("12345678901234567890123"));
        assertThat(event.get("exp")).isEqualTo(new JsonNumber("-2E+3"));
        assertThat(event.get("ok")).isEqualTo(true);
        assertThat(event.get("failed")).isEqualTo(false);
        assertThat(event).containsEntry("error", null);
        assertThat(event.get("password")).isEqualTo(new JsonNumber("1234"));
    }

    @Test
    void capsALongFieldAtAUtf8BoundaryAndRecordsIt() {
        String content = "a" + "é".repeat(1500); // 3001 bytes; byte 2048 is the second
                                                 // byte of an 'é'
        String hook = "{\"hook_event_name\":\"PostToolUse\",\"tool_input\":{\"content\":\"" + content + "\"}}";

        SpoolLineBuilder.Line line = builder.build(utf8(hook), RECEIVED, "hook", null);

        assertThat(line.flagged()).isFalse();
        Map<String, Object> envelope = object(Json.parse(line.json()));
        assertThat(envelope.keySet()).containsExactly("spool", "received_at", "source", "event", "truncated");
        String kept = (String) object(object(envelope.get("event")).get("tool_input")).get("content");
        assertThat(kept).isEqualTo("a" + "é".repeat(1023) + "\n[TRUNCATED: kept 2047 of 3001 bytes]");
        assertThat(envelope.get("truncated"))
            .isEqualTo(List.of(Map.of("path", "tool_input.content", "original_bytes", new JsonNumber("3001"))));
    }

    @Test
    void capsKoreanTextWithoutSplittingACharacter() {
        String prompt = "가".repeat(1000); // 3000 bytes; 2048 = 3 * 682 + 2
        String hook = "{\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":\"" + prompt + "\","
                + "\"files\":[\"short\",\"" + "x".repeat(2049) + "\"]}";

        SpoolLineBuilder.Line line = builder.build(utf8(hook), RECEIVED, "hook", null);

        Map<String, Object> envelope = object(Json.parse(line.json()));
        Map<String, Object> event = object(envelope.get("event"));
        assertThat(event.get("prompt")).isEqualTo("가".repeat(682) + "\n[TRUNCATED: kept 2046 of 3000 bytes]");
        assertThat(event.get("files"))
            .isEqualTo(List.of("short", "x".repeat(2048) + "\n[TRUNCATED: kept 2048 of 2049 bytes]"));
        assertThat(envelope.get("truncated"))
            .isEqualTo(List.of(Map.of("path", "prompt", "original_bytes", new JsonNumber("3000")),
                    Map.of("path", "files[1]", "original_bytes", new JsonNumber("2049"))));
    }

    @Test
    void fieldOfExactlyTheCapIsKeptWhole() {
        String hook = "{\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":\"" + "é".repeat(1024) + "\"}";

        SpoolLineBuilder.Line line = builder.build(utf8(hook), RECEIVED, "hook", null);

        Map<String, Object> envelope = object(Json.parse(line.json()));
        assertThat(envelope).doesNotContainKey("truncated");
        assertThat(object(envelope.get("event")).get("prompt")).isEqualTo("é".repeat(1024));
    }

    @Test
    void flagsInvalidUtf8AndRedactsTheRawText() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.writeBytes(utf8("{\"prompt\":\"<private>hunter2</private> ok "));
        bytes.write(0xFF);
        bytes.write(0xC3); // a lead byte without its continuation
        bytes.writeBytes(utf8("\"}"));
        byte[] input = bytes.toByteArray();

        SpoolLineBuilder.Line line = builder.build(input, RECEIVED, "hook", null);

        assertThat(line.flagged()).isTrue();
        assertThat(line.flaggedReason()).isEqualTo("input is not valid UTF-8");
        assertThat(line.json()).doesNotContain("hunter2");
        Map<String, Object> envelope = object(Json.parse(line.json()));
        assertThat(envelope.keySet()).containsExactly("spool", "received_at", "source", "error", "raw", "raw_bytes");
        assertThat(envelope.get("error")).isEqualTo("input is not valid UTF-8");
        assertThat(envelope.get("raw")).isEqualTo("{\"prompt\":\"[PRIVATE] ok \uFFFD\uFFFD\"}");
        assertThat(envelope.get("raw_bytes")).isEqualTo(new JsonNumber(Integer.toString(input.length)));
    }

    @Test
    void keepsValidInputThatHoldsAReplacementCharacterAndFlagsEveryMalformedSequence() {
        // decoding is lenient first and strict only when the result holds U+FFFD
        SpoolLineBuilder.Line kept = builder.build(utf8("{\"prompt\":\"a \uFFFD b\"}"), RECEIVED, "hook", null);
        assertThat(kept.flagged()).isFalse();
        assertThat(object(object(Json.parse(kept.json())).get("event")).get("prompt")).isEqualTo("a \uFFFD b");

        int[][] malformed = { { 0x80 }, { 0xC0, 0xAF }, { 0xE0, 0x80, 0xAF }, { 0xED, 0xA0, 0x80 },
                { 0xF4, 0x90, 0x80, 0x80 }, { 0xF8, 0x88, 0x80, 0x80, 0x80 }, { 0xE2, 0x82 }, { 0xFE } };
        for (int[] sequence : malformed) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            bytes.writeBytes(utf8("{\"prompt\":\"x"));
            for (int b : sequence) {
                bytes.write(b);
            }
            bytes.writeBytes(utf8("\"}"));
            assertThat(builder.build(bytes.toByteArray(), RECEIVED, "hook", null).flaggedReason())
                .as("bytes %s", java.util.Arrays.toString(sequence))
                .isEqualTo("input is not valid UTF-8");
        }
    }

    @Test
    void flagsInvalidJson() {
        SpoolLineBuilder.Line line = builder.build(utf8("{\"prompt\":\"password=hunter2\""), RECEIVED, "hook", null);

        assertThat(line.flagged()).isTrue();
        assertThat(line.flaggedReason()).startsWith("invalid JSON")
            .isEqualTo("invalid JSON: unexpected end of input at character 28");
        Map<String, Object> envelope = object(Json.parse(line.json()));
        assertThat(envelope.get("error")).isEqualTo(line.flaggedReason());
        assertThat(envelope.get("raw")).isEqualTo("{\"prompt\":\"password=[REDACTED]\"");
        assertThat(envelope.get("raw_bytes")).isEqualTo(new JsonNumber("28"));
        assertThat(envelope).doesNotContainKey("event");
    }

    @Test
    void flagsEmptyAndBlankInput() {
        SpoolLineBuilder.Line empty = builder.build(new byte[0], RECEIVED, "hook", null);
        SpoolLineBuilder.Line blank = builder.build(utf8(" \n\t "), RECEIVED, "hook", null);

        assertThat(empty.flagged()).isTrue();
        assertThat(empty.flaggedReason()).isEqualTo("empty input");
        assertThat(empty.json()).isEqualTo("{\"spool\":1,\"received_at\":\"2025-06-01T10:15:30.123456Z\","
                + "\"source\":\"hook\",\"error\":\"empty input\",\"raw\":\"\",\"raw_bytes\":0}");
        assertThat(blank.flaggedReason()).isEqualTo("empty input");
        assertThat(object(Json.parse(blank.json())).get("raw")).isEqualTo(" \n\t ");
        assertThat(object(Json.parse(blank.json())).get("raw_bytes")).isEqualTo(new JsonNumber("4"));
    }

    @Test
    void flagsJsonThatIsNotAnObject() {
        for (String text : List.of("[{\"hook_event_name\":\"Stop\"}]", "\"text\"", "42", "null")) {
            SpoolLineBuilder.Line line = builder.build(utf8(text), RECEIVED, "hook", null);

            assertThat(line.flagged()).as(text).isTrue();
            assertThat(line.flaggedReason()).as(text).isEqualTo("hook input is not a JSON object");
            assertThat(object(Json.parse(line.json())).get("raw")).as(text).isEqualTo(text);
        }
    }

    @Test
    void capsTheRawTextOfFlaggedInputWithoutATruncatedEntry() {
        String text = "not json " + "y".repeat(3000);

        SpoolLineBuilder.Line line = builder.build(utf8(text), RECEIVED, "hook", null);

        Map<String, Object> envelope = object(Json.parse(line.json()));
        assertThat(envelope.keySet()).containsExactly("spool", "received_at", "source", "error", "raw", "raw_bytes");
        assertThat(envelope.get("raw")).isEqualTo(text.substring(0, 2048) + "\n[TRUNCATED: kept 2048 of 3009 bytes]");
        assertThat(envelope.get("raw_bytes")).isEqualTo(new JsonNumber("3009"));
    }

    @Test
    void includesTheOriginForImportedLines() {
        String hook = "{\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":\"hi\",\"timestamp\":\"2025-05-01T08:00:00Z\"}";

        SpoolLineBuilder.Line line = builder.build(hook, RECEIVED, "import", "/home/u/.claude/projects/p/s.jsonl:12");

        assertThat(line.flagged()).isFalse();
        assertThat(line.json()).isEqualTo("{\"spool\":1,\"received_at\":\"2025-06-01T10:15:30.123456Z\","
                + "\"source\":\"import\",\"origin\":\"/home/u/.claude/projects/p/s.jsonl:12\",\"event\":" + hook + "}");
    }

    @Test
    void rawBytesOfFlaggedImportTextCountsUtf8Bytes() {
        String text = "안녕 {";

        SpoolLineBuilder.Line line = builder.build(text, RECEIVED, "import", "f.jsonl:1");

        Map<String, Object> envelope = object(Json.parse(line.json()));
        assertThat(envelope.get("origin")).isEqualTo("f.jsonl:1");
        assertThat(envelope.get("error")).isEqualTo("invalid JSON: unexpected character '안' at character 0");
        assertThat(envelope.get("raw_bytes")).isEqualTo(new JsonNumber("8"));
    }

    @Test
    void byteAndTextInputBuildTheSameLine() {
        String hook = "{\"hook_event_name\":\"Stop\",\"session_id\":\"s\",\"note\":\"안녕 é 😀\"}";

        assertThat(builder.build(hook, RECEIVED, "hook", null))
            .isEqualTo(builder.build(utf8(hook), RECEIVED, "hook", null));
    }

    @Test
    void escapesLineBreaksSoTheLineStaysOneLine() {
        String hook = "{\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":\"a\\nb\\u2028c\\r\"}";

        SpoolLineBuilder.Line line = builder.build(utf8(hook), RECEIVED, "hook", null);

        assertThat(line.json()).doesNotContain("\n", "\r", "\u2028");
        assertThat(object(object(Json.parse(line.json())).get("event")).get("prompt")).isEqualTo("a\nb\u2028c\r");
    }

    @Test
    void rejectsACapBelow1024Bytes() {
        assertThatThrownBy(() -> new SpoolLineBuilder(Redactor.defaults(), 1023))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("max field bytes must be at least 1024, was 1023");
        assertThat(new SpoolLineBuilder(Redactor.defaults(), 1024).build("{}", RECEIVED, "hook", null).json())
            .isEqualTo(
                    "{\"spool\":1,\"received_at\":\"2025-06-01T10:15:30.123456Z\",\"source\":\"hook\",\"event\":{}}");
    }

    @Test
    void defaultsCapFieldsAtTwoMebibytes() {
        String big = "z".repeat(SpoolLineBuilder.DEFAULT_MAX_FIELD_BYTES + 1);

        SpoolLineBuilder.Line line = SpoolLineBuilder.defaults()
            .build("{\"prompt\":\"" + big + "\"}", RECEIVED, "hook", null);

        assertThat(object(object(Json.parse(line.json())).get("event")).get("prompt"))
            .isEqualTo(big.substring(1) + "\n[TRUNCATED: kept 2097152 of 2097153 bytes]");
    }

    @Test
    void recognisesSecretKeysIgnoringCaseUnderscoresAndDashes() {
        for (String key : List.of("password", "PASSWORD", "api_key", "Api-Key", "apiKey", "client_secret",
                "refresh-token", "private_key", "Credentials", "auth_token", "passwords", "DB_PASSWORD",
                "NEO4J_PASSWORD", "x-api-key")) {
            assertThat(SpoolLineBuilder.isSecretKey(key)).as(key).isTrue();
        }
        for (String key : List.of("author", "keyword", "tokens", "tokenizer", "secret_santa", "max_tokens",
                "input_tokens", "password_min_length", "tool_use_id", "transcript_path", "")) {
            assertThat(SpoolLineBuilder.isSecretKey(key)).as(key).isFalse();
        }
    }

    @Test
    void readOfAnEnvFileMasksEveryValueOfIt() {
        String hook = "{\"hook_event_name\":\"PostToolUse\",\"tool_name\":\"Read\","
                + "\"tool_input\":{\"file_path\":\"/repo/.env\"},\"tool_response\":{\"type\":\"text\","
                + "\"file\":{\"filePath\":\"/repo/.env\",\"content\":\"DB_HOST=db.internal\\nSTRIPE=abc\\n"
                + "# dev only\\nNEO4J_PASSWORD=Quokka-Lantern-8814\\n\",\"numLines\":4}}}";

        SpoolLineBuilder.Line line = builder.build(utf8(hook), RECEIVED, "hook", null);

        Map<String, Object> file = object(
                object(object(object(Json.parse(line.json())).get("event")).get("tool_response")).get("file"));
        assertThat(file.get("content"))
            .isEqualTo("DB_HOST=[REDACTED]\nSTRIPE=[REDACTED]\n# dev only\n" + "NEO4J_PASSWORD=[REDACTED]\n");
        assertThat(file.get("filePath")).isEqualTo("/repo/.env");
        assertThat(line.json()).doesNotContain("db.internal", "abc", "Quokka");
    }

    @Test
    void catOfACredentialFileMasksEveryValueOfItsOutput() {
        String hook = "{\"hook_event_name\":\"PostToolUse\",\"tool_name\":\"Bash\","
                + "\"tool_input\":{\"command\":\"cat ~/.aws/credentials\"},\"tool_response\":{\"stdout\":"
                + "\"[default]\\naws_access_key_id = AKIA0000\\nregion = eu-west-1\\n\"}}";

        SpoolLineBuilder.Line line = builder.build(utf8(hook), RECEIVED, "hook", null);

        assertThat(object(object(object(Json.parse(line.json())).get("event")).get("tool_response")).get("stdout"))
            .isEqualTo("[default]\naws_access_key_id = [REDACTED]\nregion = [REDACTED]\n");
    }

    @Test
    void findsAFilePrinterAndACredentialFileAmongTheWordsOfACommand() {
        for (String command : List.of("cat .env", "grep -n KEY \"./.env\"|head", "(cat .env.local)", "cat<.env",
                "echo x;cat\t~/.aws/credentials", "ls && tail -f 'secrets.yml'", "  head\n.env  ")) {
            assertThat(SpoolLineBuilder.touchesCredentialFile(Map.of("tool_input", Map.of("command", command))))
                .as(command)
                .isTrue();
        }
        for (String command : List.of("cat README.md", "vim .env", "cat .env.example", "echo cat", "", "|;&")) {
            assertThat(SpoolLineBuilder.touchesCredentialFile(Map.of("tool_input", Map.of("command", command))))
                .as(command)
                .isFalse();
        }
    }

    @Test
    void readOfAnOrdinaryFileKeepsItsValues() {
        String hook = "{\"hook_event_name\":\"PostToolUse\",\"tool_name\":\"Read\","
                + "\"tool_input\":{\"file_path\":\"/repo/.env.example\"},\"tool_response\":{\"content\":"
                + "\"DB_HOST=db.internal\\n\"}}";

        SpoolLineBuilder.Line line = builder.build(utf8(hook), RECEIVED, "hook", null);

        assertThat(object(object(object(Json.parse(line.json())).get("event")).get("tool_response")).get("content"))
            .isEqualTo("DB_HOST=db.internal\n");
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> object(Object value) {
        assertThat(value).isInstanceOf(Map.class);
        return (Map<String, Object>) value;
    }

}

package dev.codememory.processors.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.capture.spool.SpoolLineBuilder;
import dev.codememory.config.ingest.IngestRecord;
import dev.codememory.config.ingest.SpoolLine;
import dev.codememory.config.injection.Injection;
import dev.codememory.config.injection.InjectionLine;
import dev.codememory.config.project.ProjectResolver;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HookEventProcessorTests {

    private static final String FILE = "20250601T101530.000000Z-42-1.jsonl";

    private static final String RECEIVED = "2025-06-01T10:15:30.123456Z";

    @TempDir
    Path tmp;

    private final SpoolLineBuilder builder = SpoolLineBuilder.defaults();

    private final HookEventProcessor processor = new HookEventProcessor(new ProjectResolver());

    private Path repo;

    @BeforeEach
    void createRepository() throws IOException {
        repo = tmp.resolve("repo");
        Files.createDirectories(repo.resolve(".git"));
        Files.createDirectories(repo.resolve("src"));
    }

    // ---- events ----

    @Test
    void whatTheHookAcceptsIngestEvenWhenDeeplyNestedOrWithLongNumbers() {
        String deep = "[".repeat(500) + "]".repeat(500);
        String longNumber = "1" + "0".repeat(5_000);
        String hook = "{\"session_id\":\"s\",\"hook_event_name\":\"PostToolUse\",\"tool_response\":{\"d\":" + deep
                + ",\"n\":" + longNumber + "}}";

        IngestRecord.Event event = event(hookLine(hook, RECEIVED, 1));

        assertThat(event.payloadJson()).contains(deep).contains(longNumber);
    }

    @Test
    void turnsAHookLineIntoAnEvent() {
        String cwd = repo.resolve("src").toString();
        String hook = "{\"session_id\":\"s-1\",\"cwd\":\"" + cwd + "\",\"hook_event_name\":\"PostToolUse\","
                + "\"tool_name\":\"Write\",\"tool_input\":{\"content\":\"a <private>x</private> b\"}}";

        IngestRecord.Event event = event(hookLine(hook, RECEIVED, 3));

        String payload = "{\"session_id\":\"s-1\",\"cwd\":\"" + cwd + "\",\"hook_event_name\":\"PostToolUse\","
                + "\"tool_name\":\"Write\",\"tool_input\":{\"content\":\"a [PRIVATE] b\"}}";
        String dedupeKey = sha256("PostToolUse\u0000s-1\u0000received:" + RECEIVED + "\u0000" + payload);
        assertThat(event).isEqualTo(new IngestRecord.Event("ev_" + dedupeKey.substring(0, 32), dedupeKey,
                LocalDateTime.of(2025, 6, 1, 10, 15, 30, 123_456_000),
                LocalDateTime.of(2025, 6, 1, 10, 15, 30, 123_456_000), "PostToolUse", "s-1", repo.toString(), cwd,
                "hook", payload, sha256(payload), FILE, 3));
        assertThat(event.eventId()).matches("ev_[0-9a-f]{32}");
        assertThat(event.dedupeKey()).matches("[0-9a-f]{64}");
    }

    @Test
    void eventTimeComesFromTheTimestampConvertedToUtc() {
        String hook = "{\"session_id\":\"s\",\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":\"hi\","
                + "\"timestamp\":\"2025-06-01T12:00:00.5+02:00\"}";

        IngestRecord.Event event = event(hookLine(hook, RECEIVED, 1));

        assertThat(event.ts()).isEqualTo(LocalDateTime.of(2025, 6, 1, 10, 0, 0, 500_000_000));
        assertThat(event.receivedAt()).isEqualTo(LocalDateTime.of(2025, 6, 1, 10, 15, 30, 123_456_000));
        assertThat(event.dedupeKey())
            .isEqualTo(sha256("UserPromptSubmit\u0000s\u0000ts:2025-06-01T10:00:00.500\u0000" + hook));
    }

    @Test
    void timestampsInZuluOrWithoutOffsetAreUtc() {
        assertThat(HookEventProcessor.parseTime("2025-06-01T10:00:00Z")).isEqualTo(LocalDateTime.of(2025, 6, 1, 10, 0));
        assertThat(HookEventProcessor.parseTime("2025-06-01T10:00:00")).isEqualTo(LocalDateTime.of(2025, 6, 1, 10, 0));
        assertThat(HookEventProcessor.parseTime("2025-06-01T05:30:00-04:30"))
            .isEqualTo(LocalDateTime.of(2025, 6, 1, 10, 0));
        assertThat(HookEventProcessor.parseTime("2025-06-01")).isNull();
        assertThat(HookEventProcessor.parseTime("yesterday")).isNull();
        assertThat(HookEventProcessor.parseTime(" ")).isNull();
        assertThat(HookEventProcessor.parseTime(null)).isNull();
    }

    @Test
    void unparseableTimestampFallsBackToTheTimeOfReceipt() {
        String hook = "{\"hook_event_name\":\"Stop\",\"timestamp\":\"yesterday\"}";

        IngestRecord.Event event = event(hookLine(hook, RECEIVED, 1));

        assertThat(event.ts()).isEqualTo(event.receivedAt());
        assertThat(event.dedupeKey()).isEqualTo(sha256("Stop\u0000\u0000received:" + RECEIVED + "\u0000" + hook));
    }

    @Test
    void eventWithoutSessionOrCwdHasUnknownProject() {
        IngestRecord.Event event = event(
                hookLine("{\"hook_event_name\":\"Notification\",\"message\":\"m\"}", RECEIVED, 1));

        assertThat(event.sessionId()).isNull();
        assertThat(event.cwd()).isNull();
        assertThat(event.project()).isEqualTo("(unknown)");
        assertThat(event.source()).isEqualTo("hook");
    }

    @Test
    void cwdOutsideARepositoryIsTheProject() {
        IngestRecord.Event event = event(
                hookLine("{\"hook_event_name\":\"SessionStart\",\"cwd\":\"/no/such/../place\"}", RECEIVED, 1));

        assertThat(event.cwd()).isEqualTo("/no/such/../place");
        assertThat(event.project()).isEqualTo("/no/place");
    }

    @Test
    void payloadKeepsNumbersBooleansAndNullExactly() {
        String hook = "{\"hook_event_name\":\"PostToolUse\",\"a\":1.50,\"b\":12345678901234567890123,"
                + "\"c\":0.1000000000000000055511,\"d\":1E+400,\"e\":42,\"t\":true,\"f\":false,\"n\":null,"
                + "\"k\":\"안녕 é\"}";

        IngestRecord.Event event = event(hookLine(hook, RECEIVED, 1));

        assertThat(event.payloadJson()).isEqualTo(hook);
        assertThat(event.checksum()).isEqualTo(sha256(hook));
    }

    @Test
    void sameLineProcessedTwiceGivesTheSameIds() {
        SpoolLine line = hookLine("{\"session_id\":\"s\",\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":\"p\"}",
                RECEIVED, 1);

        IngestRecord.Event first = event(line);
        IngestRecord.Event second = event(line);
        IngestRecord.Event otherProcessor = (IngestRecord.Event) new HookEventProcessor(new ProjectResolver())
            .process(line);

        assertThat(second).isEqualTo(first);
        assertThat(otherProcessor).isEqualTo(first);
    }

    @Test
    void samePromptReceivedAtDifferentTimesIsTwoEvents() {
        String hook = "{\"session_id\":\"s\",\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":\"same\"}";

        IngestRecord.Event first = event(hookLine(hook, "2025-06-01T10:00:00Z", 1));
        IngestRecord.Event second = event(hookLine(hook, "2025-06-01T10:01:00Z", 2));

        assertThat(second.payloadJson()).isEqualTo(first.payloadJson());
        assertThat(second.dedupeKey()).isNotEqualTo(first.dedupeKey());
        assertThat(second.eventId()).isNotEqualTo(first.eventId());
        assertThat(second.checksum()).isEqualTo(first.checksum());
    }

    @Test
    void reimportedLineWithTheSameTimestampIsTheSameEvent() {
        String hook = "{\"session_id\":\"s\",\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":\"same\","
                + "\"timestamp\":\"2025-05-01T08:00:00Z\"}";

        IngestRecord.Event first = event(importLine(hook, "2025-06-01T10:00:00Z", "a.jsonl:1", 1));
        IngestRecord.Event second = event(importLine(hook, "2025-06-02T11:00:00Z", "b.jsonl:7", 2));

        assertThat(second.dedupeKey()).isEqualTo(first.dedupeKey());
        assertThat(second.eventId()).isEqualTo(first.eventId());
        assertThat(second.receivedAt()).isNotEqualTo(first.receivedAt());
        assertThat(first.source()).isEqualTo("import");
        assertThat(first.ts()).isEqualTo(LocalDateTime.of(2025, 5, 1, 8, 0));
    }

    @Test
    void importedLinesWithoutTimestampAreTellApartByOrigin() {
        String hook = "{\"session_id\":\"s\",\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":\"same\"}";

        IngestRecord.Event first = event(importLine(hook, RECEIVED, "s.jsonl:1", 1));
        IngestRecord.Event second = event(importLine(hook, RECEIVED, "s.jsonl:2", 2));
        IngestRecord.Event reimported = event(importLine(hook, "2025-07-01T00:00:00Z", "s.jsonl:1", 3));

        assertThat(second.dedupeKey()).isNotEqualTo(first.dedupeKey());
        assertThat(reimported.dedupeKey()).isEqualTo(first.dedupeKey());
        assertThat(first.dedupeKey()).isEqualTo(sha256("UserPromptSubmit\u0000s\u0000origin:s.jsonl:1\u0000" + hook));
        assertThat(first.ts()).isEqualTo(LocalDateTime.of(2025, 6, 1, 10, 15, 30, 123_456_000));
    }

    @Test
    void everyDocumentedHookEventIsAccepted() {
        for (String name : HookEventProcessor.KNOWN_EVENTS) {
            IngestRecord record = processor.process(hookLine("{\"hook_event_name\":\"" + name + "\"}", RECEIVED, 1));

            assertThat(record).as(name).isInstanceOf(IngestRecord.Event.class);
            assertThat(((IngestRecord.Event) record).eventType()).isEqualTo(name);
        }
        assertThat(HookEventProcessor.KNOWN_EVENTS).hasSize(23);
    }

    // ---- rejects ----

    @Test
    void rejectsInvalidUtf8() {
        SpoolLine line = new SpoolLine(FILE, 4, "{\"spool\":1\uFFFD}", false, false);

        assertThat(processor.process(line)).isEqualTo(reject(4, "spool line is not valid UTF-8", line.text(), null));
    }

    @Test
    void rejectsATornLineThatIsAlsoInvalidUtf8() {
        SpoolLine line = new SpoolLine(FILE, 9, "{\"spool\":1,\uFFFD", false, true);

        assertThat(processor.process(line))
            .isEqualTo(reject(9, "torn spool line (writer stopped mid-line) and not valid UTF-8", line.text(), null));
    }

    @Test
    void rejectsATornLine() {
        String whole = hookLine("{\"hook_event_name\":\"Stop\"}", RECEIVED, 1).text();
        SpoolLine torn = new SpoolLine(FILE, 12, whole.substring(0, whole.length() - 5), true, true);

        IngestRecord.Reject reject = reject(processor.process(torn));

        assertThat(reject.reason()).isEqualTo("torn spool line (writer stopped mid-line):"
                + " unterminated string at character " + torn.text().length());
        assertThat(reject.rawText()).isEqualTo(torn.text());
        assertThat(reject.receivedAt()).isNull();
        assertThat(reject.spoolLine()).isEqualTo(12);
    }

    @Test
    void rejectsALineThatIsNotJson() {
        IngestRecord.Reject reject = reject(processor.process(new SpoolLine(FILE, 2, "garbage here", true, false)));

        assertThat(reject.reason()).isEqualTo("spool line is not valid JSON: unexpected character 'g' at character 0");
        assertThat(reject.reason().length()).isLessThanOrEqualTo("spool line is not valid JSON: ".length() + 201);
        assertThat(reject.rawText()).isEqualTo("garbage here");
        assertThat(reject.receivedAt()).isNull();
    }

    @Test
    void rejectsJsonThatIsNotAnObject() {
        for (String text : new String[] { "[1,2]", "\"text\"", "42", "null", "  " }) {
            SpoolLine line = new SpoolLine(FILE, 5, text, true, false);

            assertThat(processor.process(line)).as(text)
                .isEqualTo(reject(5, "spool line is not a JSON object", text, null));
        }
    }

    @Test
    void rejectsFlaggedHookInputKeepingItsRedactedRawText() {
        SpoolLineBuilder.Line built = builder.build(
                "{\"prompt\":\"<private>pw</private>\"".getBytes(StandardCharsets.UTF_8), Instant.parse(RECEIVED),
                "hook", null);
        SpoolLine line = new SpoolLine(FILE, 6, built.json(), true, false);

        assertThat(processor.process(line))
            .isEqualTo(reject(6, "hook input rejected: invalid JSON: unexpected end of input at character 33",
                    "{\"prompt\":\"[PRIVATE]\"", LocalDateTime.of(2025, 6, 1, 10, 15, 30, 123_456_000)));
    }

    @Test
    void rejectsFlaggedInvalidUtf8HookInput() {
        SpoolLineBuilder.Line built = builder.build(new byte[] { '{', (byte) 0xFF, '}' }, Instant.parse(RECEIVED),
                "hook", null);

        IngestRecord.Reject reject = reject(processor.process(new SpoolLine(FILE, 1, built.json(), true, false)));

        assertThat(reject.reason()).isEqualTo("hook input rejected: input is not valid UTF-8");
        assertThat(reject.rawText()).isEqualTo("{\uFFFD}");
    }

    @Test
    void rejectsAnEventWithoutHookEventName() {
        SpoolLine line = hookLine("{\"session_id\":\"s\"}", RECEIVED, 7);

        assertThat(processor.process(line)).isEqualTo(reject(7, "hook event has no hook_event_name", line.text(),
                LocalDateTime.of(2025, 6, 1, 10, 15, 30, 123_456_000)));
        assertThat(reject(processor.process(hookLine("{\"hook_event_name\":\" \"}", RECEIVED, 7))).reason())
            .isEqualTo("hook event has no hook_event_name");
        assertThat(reject(processor.process(hookLine("{\"hook_event_name\":5}", RECEIVED, 7))).reason())
            .isEqualTo("hook event has no hook_event_name");
    }

    @Test
    void rejectsAnUnknownHookEvent() {
        SpoolLine line = hookLine("{\"hook_event_name\":\"Foo\"}", RECEIVED, 8);

        assertThat(processor.process(line)).isEqualTo(reject(8, "unknown hook event 'Foo'", line.text(),
                LocalDateTime.of(2025, 6, 1, 10, 15, 30, 123_456_000)));
    }

    @Test
    void rejectsALineWithoutReceivedAt() {
        String text = "{\"spool\":1,\"source\":\"hook\",\"event\":{\"hook_event_name\":\"Stop\"}}";

        assertThat(processor.process(new SpoolLine(FILE, 10, text, true, false)))
            .isEqualTo(reject(10, "spool line has no valid received_at", text, null));
        String badTime = "{\"spool\":1,\"received_at\":\"soon\",\"event\":{\"hook_event_name\":\"Stop\"}}";
        assertThat(reject(processor.process(new SpoolLine(FILE, 10, badTime, true, false))).reason())
            .isEqualTo("spool line has no valid received_at");
    }

    @Test
    void rejectsALineWithoutAnEventObject() {
        String text = "{\"spool\":1,\"received_at\":\"" + RECEIVED + "\",\"event\":[1]}";

        assertThat(processor.process(new SpoolLine(FILE, 11, text, true, false))).isEqualTo(reject(11,
                "spool line has no hook event object", text, LocalDateTime.of(2025, 6, 1, 10, 15, 30, 123_456_000)));
    }

    @Test
    void rejectIdIsDerivedFromFileAndLine() {
        IngestRecord.Reject a = reject(processor.process(new SpoolLine("a.jsonl", 1, "x", true, false)));
        IngestRecord.Reject again = reject(processor.process(new SpoolLine("a.jsonl", 1, "other text", true, true)));
        IngestRecord.Reject nextLine = reject(processor.process(new SpoolLine("a.jsonl", 2, "x", true, false)));
        IngestRecord.Reject otherFile = reject(processor.process(new SpoolLine("b.jsonl", 1, "x", true, false)));

        assertThat(a.rejectId()).isEqualTo("rj_" + sha256("a.jsonl:1").substring(0, 32));
        assertThat(again.rejectId()).isEqualTo(a.rejectId());
        assertThat(nextLine.rejectId()).isNotEqualTo(a.rejectId());
        assertThat(otherFile.rejectId()).isNotEqualTo(a.rejectId());
    }

    @Test
    void longUnknownEventNameIsShortenedInTheReason() {
        String name = "E".repeat(300);

        IngestRecord.Reject reject = reject(
                processor.process(hookLine("{\"hook_event_name\":\"" + name + "\"}", RECEIVED, 1)));

        assertThat(reject.reason()).isEqualTo("unknown hook event '" + "E".repeat(200) + "…'");
    }

    // ---- injection records ----

    @Test
    void turnsAnInjectionLineIntoAnInjectionRecord() {
        Injection injection = new Injection("s-1", "ev_0123456789abcdef0123456789abcdef", "UserPromptSubmit",
                Instant.parse(RECEIVED), "suggested", 640, List.of(new Injection.Item("mem:a7Bc3x", "m-1", 1, 0.81),
                        new Injection.Item("mem:Q2w_e4", "m-2", 2, 0.77)));

        IngestRecord record = processor.process(new SpoolLine(FILE, 13, InjectionLine.write(injection), true, false));

        assertThat(record).isEqualTo(new IngestRecord.Injected(injection.injectionId(), injection, FILE, 13));
    }

    @Test
    void rejectsAMalformedInjectionLineWithTheReason() {
        String text = "{\"spool\":1,\"record\":\"injection\",\"injection\":{\"session_id\":\"s\","
                + "\"hook_event_name\":\"UserPromptSubmit\",\"injected_at\":\"" + RECEIVED + "\","
                + "\"band\":\"high\",\"chars\":10,\"items\":[{\"citation\":\"mem:a7Bc3x\",\"memory_id\":\"m\","
                + "\"rank\":1,\"score\":\"high\"}]}}";

        assertThat(processor.process(new SpoolLine(FILE, 14, text, true, false)))
            .isEqualTo(reject(14, "invalid injection record: item score is missing or not a number", text,
                    LocalDateTime.of(2025, 6, 1, 10, 15, 30, 123_456_000)));
        String noObject = "{\"spool\":1,\"record\":\"injection\"}";
        assertThat(processor.process(new SpoolLine(FILE, 15, noObject, true, false)))
            .isEqualTo(reject(15, "invalid injection record: no \"injection\" object", noObject, null));
    }

    @Test
    void rejectsAnUnknownSpoolRecord() {
        String text = "{\"spool\":1,\"record\":\"feedback\",\"received_at\":\"" + RECEIVED + "\"}";
        String notText = "{\"spool\":1,\"record\":[1]}";

        assertThat(processor.process(new SpoolLine(FILE, 16, text, true, false)))
            .isEqualTo(reject(16, "unknown spool record 'feedback'", text, null));
        assertThat(reject(processor.process(new SpoolLine(FILE, 17, notText, true, false))).reason())
            .isEqualTo("unknown spool record '[1]'");
    }

    // ---- helpers ----

    private SpoolLine hookLine(String hookJson, String receivedAt, long lineNumber) {
        SpoolLineBuilder.Line built = builder.build(hookJson.getBytes(StandardCharsets.UTF_8),
                Instant.parse(receivedAt), "hook", null);
        assertThat(built.flagged()).isFalse();
        return new SpoolLine(FILE, lineNumber, built.json(), true, false);
    }

    private SpoolLine importLine(String hookJson, String receivedAt, String origin, long lineNumber) {
        SpoolLineBuilder.Line built = builder.build(hookJson, Instant.parse(receivedAt), "import", origin);
        assertThat(built.flagged()).isFalse();
        return new SpoolLine(FILE, lineNumber, built.json(), true, false);
    }

    private IngestRecord.Event event(SpoolLine line) {
        IngestRecord record = processor.process(line);
        assertThat(record).isInstanceOf(IngestRecord.Event.class);
        return (IngestRecord.Event) record;
    }

    private static IngestRecord.Reject reject(IngestRecord record) {
        assertThat(record).isInstanceOf(IngestRecord.Reject.class);
        return (IngestRecord.Reject) record;
    }

    private static IngestRecord.Reject reject(long line, String reason, String raw, LocalDateTime receivedAt) {
        return new IngestRecord.Reject("rj_" + sha256(FILE + ":" + line).substring(0, 32), FILE, line, reason, raw,
                receivedAt);
    }

    private static String sha256(String s) {
        try {
            return HexFormat.of()
                .formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
        }
        catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }

}

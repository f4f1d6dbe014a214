package dev.codememory.processors.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.capture.spool.EventIdentity;
import dev.codememory.config.ingest.IngestRecord;
import dev.codememory.config.ingest.SpoolLine;
import dev.codememory.config.project.ProjectResolver;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

class PlainEventLineTests {

    private static final String RECEIVED = "\"received_at\":\"2025-06-01T10:15:30.123456Z\"";

    @Test
    void readsTheFieldsOfAPlainHookLineWithItsEscapesDecodedAndItsEventTextAsThePayload() {
        String event = "{\"session_id\":\"s\\\"1\",\"cwd\":\"/tmp/a b\",\"hook_event_name\":\"Stop\","
                + "\"timestamp\":\"2025-06-01T10:00:00Z\",\"x\":[1,-2,{},[],true,null,12345678901234567890123],"
                + "\"y\":\"안녕 🙂 \u007f\u2028 \\n\\t\\\\\"}";
        PlainEventLine.Fields fields = PlainEventLine
            .read("{\"spool\":1, " + RECEIVED + ",\"source\":\"import\"," + "\"origin\":\"h\\/jsonl:3\",\"event\":"
                    + event + " ,\"truncated\":[{\"path\":\"x\"," + "\"original_bytes\":9}]}");

        assertThat(fields).isEqualTo(new PlainEventLine.Fields("2025-06-01T10:15:30.123456Z", "import", "h/jsonl:3",
                null, "Stop", "s\"1", "/tmp/a b", "2025-06-01T10:00:00Z", event));
    }

    @Test
    void anEventWithSpacesOrEscapedSlashesIsNotItsOwnPayload() {
        assertThat(PlainEventLine.read("{" + RECEIVED + ",\"event\":{\"hook_event_name\":\"Stop\",\"p\":\"a\\/b\"}}"))
            .isNull();
        assertThat(PlainEventLine.read("{" + RECEIVED + ",\"event\":{\"hook_event_name\":\"Stop\", \"p\":1}}"))
            .isNull();
        assertThat(PlainEventLine.read("{" + RECEIVED + ",\"event\":{\"hook_event_name\":\"Stop\",\"p\":[1 ]}}"))
            .isNull();
    }

    @Test
    void controlCharacterEscapesAreWrittenAsJacksonWritesThem() {
        String line = "{" + RECEIVED + ",\"event\":{\"hook_event_name\":\"PostToolUse\",\"out\":\"\\u001b[31mred"
                + "\\u001B[0m \\u0000 \\u007f \\u2028\\u2029 \\n\"}}";

        assertThat(PlainEventLine.read(line).payload()).isEqualTo("{\"hook_event_name\":\"PostToolUse\",\"out\":"
                + "\"\\u001B[31mred\\u001B[0m \\u0000 \u007f \u2028\u2029 \\n\"}");
        for (String escape : new String[] { "\\u0009", "\\u000a", "\\u0022", "\\u005c", "\\u00e9", "\\ud83d", "\\u001",
                "\\u00zz" }) {
            String other = "{" + RECEIVED + ",\"event\":{\"hook_event_name\":\"Stop\",\"o\":\"" + escape + "\"}}";
            assertThat(PlainEventLine.read(other)).as(other).isNull();
        }
        assertThat(PlainEventLine
            .read("{" + RECEIVED + ",\"event\":{\"hook_event_name\":\"Stop\"," + "\"session_id\":\"a\\u0001\"}}"))
            .isNull();
    }

    @Test
    void fieldsOfOtherTypesAreAbsentOrSendTheLineTheFullWay() {
        String event = "{\"hook_event_name\":\"Stop\",\"session_id\":7,\"cwd\":null,\"timestamp\":{}}";
        assertThat(PlainEventLine.read("{" + RECEIVED + ",\"event\":" + event + "}"))
            .isEqualTo(new PlainEventLine.Fields("2025-06-01T10:15:30.123456Z", null, null, null, "Stop", null, null,
                    null, event));
        assertThat(PlainEventLine.read("{" + RECEIVED + ",\"source\":null,\"event\":{\"hook_event_name\":\"Stop\"}}"))
            .isNull();
        assertThat(PlainEventLine.read("{" + RECEIVED + ",\"identity\":1,\"event\":{\"hook_event_name\":\"Stop\"}}"))
            .isNull();
        assertThat(PlainEventLine.read("{" + RECEIVED + ",\"event\":{\"hook_event_name\":1}}")).isNull();
        assertThat(PlainEventLine.read("{\"received_at\":5,\"event\":{\"hook_event_name\":\"Stop\"}}")).isNull();
    }

    @Test
    void linesThatAreNotHookEventsAreNotPlain() {
        assertThat(PlainEventLine
            .read("{" + RECEIVED + ",\"record\":\"injection\",\"event\":{\"hook_event_name\":" + "\"Stop\"}}"))
            .isNull();
        assertThat(PlainEventLine.read("{" + RECEIVED + ",\"error\":null,\"event\":{\"hook_event_name\":\"Stop\"}}"))
            .isNull();
        assertThat(PlainEventLine.read("{" + RECEIVED + ",\"event\":[]}")).isNull();
        assertThat(PlainEventLine.read("{" + RECEIVED + "}")).isNull();
        assertThat(PlainEventLine.read("{\"event\":{\"hook_event_name\":\"Stop\"}}")).isNull();
        assertThat(PlainEventLine.read("[]")).isNull();
    }

    @Test
    void textJacksonWouldWriteDifferentlyIsNotPlain() {
        for (String value : new String[] { "\"\\u00e9\"", "\"\\ud800\"", "1.5", "1e5", "1E+5", "-0", "0.0",
                "{\"a\":1,\"a\":2}", "[{\"b\":1,\"c\":{\"d\":1,\"d\":1}}]", "\"a\u0001b\"", "\"\\x\"", "01", "tru",
                "[".repeat(70) + "]".repeat(70) }) {
            String line = "{" + RECEIVED + ",\"event\":{\"hook_event_name\":\"Stop\",\"v\":" + value + "}}";
            assertThat(PlainEventLine.read(line)).as(line).isNull();
        }
        assertThat(PlainEventLine.read("{" + RECEIVED + ",\"event\":{\"hook_event_name\":\"Stop\",\"a\\/\":1}}"))
            .isNull();
        assertThat(PlainEventLine.read("{" + RECEIVED + "," + RECEIVED + ",\"event\":{\"hook_event_name\":\"Stop\"}}"))
            .isNull();
    }

    @Test
    void malformedJsonIsNotPlain() {
        for (String line : new String[] { "", "{", "{\"a\"", "{\"a\":}", "{\"a\":1,}", "{\"a\":1} x", "{'a':1}",
                "{\"a\":[1,]}", "{\"a\":\"open}", "{\"a\":1 \"b\":2}" }) {
            assertThat(PlainEventLine.read(line)).as(line).isNull();
        }
    }

    @Test
    void keysMayRepeatInDifferentObjectsAndTheEnvelopeMayHaveSpaces() {
        assertThat(PlainEventLine.read(" {" + RECEIVED + " , \"event\" :{\"hook_event_name\":\"Stop\",\"a\":{\"a\":"
                + "{\"a\":1}},\"b\":[{\"a\":1},{\"a\":2}]} }\r"))
            .isNotNull();
        assertThat(PlainEventLine.read("{" + RECEIVED + ",\"event\":{\"hook_event_name\":\"Stop\",\"n\":"
                + "-123456789012345678901234567890,\"z\":0,\"m\":-7}}"))
            .isNotNull();
    }

    @Test
    void processorTakesThePlainPathOnlyForUntornUtf8LinesOfKnownEvents() throws Exception {
        SpoolLineProcessor processor = new SpoolLineProcessor(new ProjectResolver());
        HookEventProcessor reference = new HookEventProcessor(new ProjectResolver());
        String line = "{\"spool\":1," + RECEIVED + ",\"event\":{\"session_id\":\"s\",\"hook_event_name\":\"Stop\"}}";
        String identified = line.replace("\"spool\":1,", "\"spool\":1,\"identity\":\"u-1:prompt\",");

        for (SpoolLine spoolLine : List.of(new SpoolLine("f.jsonl", 4, line, true, false),
                new SpoolLine("f.jsonl", 4, line, true, true), new SpoolLine("f.jsonl", 4, line, false, false),
                new SpoolLine("f.jsonl", 4, line.replace("Stop", "Nope"), true, false),
                new SpoolLine("f.jsonl", 4, identified, true, false))) {
            assertThat(processor.process(spoolLine)).isEqualTo(reference.process(spoolLine));
        }
        LocalDateTime at = LocalDateTime.of(2025, 6, 1, 10, 15, 30, 123_456_000);
        String payload = "{\"session_id\":\"s\",\"hook_event_name\":\"Stop\"}";
        String key = EventIdentity.sha256("Stop\u0000s\u0000received:2025-06-01T10:15:30.123456Z\u0000" + payload);
        assertThat(processor.process(new SpoolLine("f.jsonl", 4, line, true, false)))
            .isEqualTo(new IngestRecord.Event("ev_" + key.substring(0, 32), key, at, at, "Stop", "s",
                    ProjectResolver.UNKNOWN, null, "hook", payload, EventIdentity.sha256(payload), "f.jsonl", 4));
    }

}

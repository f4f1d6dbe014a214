package dev.codememory.processors.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.config.ingest.IngestRecord;
import dev.codememory.config.ingest.SpoolLine;
import dev.codememory.config.project.ProjectResolver;
import java.time.LocalDateTime;
import org.junit.jupiter.api.Test;

class PlainEventLineTests {

    private static final String RECEIVED = "\"received_at\":\"2025-06-01T10:15:30.123456Z\"";

    @Test
    void readsTheFieldsOfAPlainHookLineWithItsEscapesDecoded() {
        PlainEventLine.Fields fields = PlainEventLine.read("{\"spool\":1," + RECEIVED + ",\"source\":\"import\","
                + "\"origin\":\"h.jsonl:3\",\"event\":{\"session_id\":\"s\\\"1\",\"cwd\":\"/tmp/a\\/b\","
                + "\"hook_event_name\":\"Stop\",\"timestamp\":\"2025-06-01T10:00:00Z\",\"x\":[1,-2,{},[],true,null],"
                + "\"y\":\"안녕 🙂 \\n\\t\\\\\"},\"truncated\":[{\"path\":\"x\",\"original_bytes\":9}]}");

        assertThat(fields).isEqualTo(new PlainEventLine.Fields("2025-06-01T10:15:30.123456Z", "import", "h.jsonl:3",
                null, "Stop", "s\"1", "/tmp/a/b", "2025-06-01T10:00:00Z"));
    }

    @Test
    void fieldsOfOtherTypesAreAbsentOrSendTheLineTheFullWay() {
        assertThat(PlainEventLine.read("{" + RECEIVED + ",\"event\":{\"hook_event_name\":\"Stop\",\"session_id\":7,"
                + "\"cwd\":null,\"timestamp\":{}}}"))
                .isEqualTo(new PlainEventLine.Fields("2025-06-01T10:15:30.123456Z", null, null, null, "Stop", null,
                        null, null));
        assertThat(PlainEventLine.read("{" + RECEIVED + ",\"source\":null,\"event\":{\"hook_event_name\":\"Stop\"}}"))
                .isNull();
        assertThat(PlainEventLine.read("{" + RECEIVED + ",\"identity\":1,\"event\":{\"hook_event_name\":\"Stop\"}}"))
                .isNull();
        assertThat(PlainEventLine.read("{" + RECEIVED + ",\"event\":{\"hook_event_name\":1}}")).isNull();
        assertThat(PlainEventLine.read("{\"received_at\":5,\"event\":{\"hook_event_name\":\"Stop\"}}")).isNull();
    }

    @Test
    void linesThatAreNotHookEventsAreNotPlain() {
        assertThat(PlainEventLine.read("{" + RECEIVED + ",\"record\":\"injection\",\"event\":{\"hook_event_name\":"
                + "\"Stop\"}}")).isNull();
        assertThat(PlainEventLine.read("{" + RECEIVED + ",\"error\":null,\"event\":{\"hook_event_name\":\"Stop\"}}"))
                .isNull();
        assertThat(PlainEventLine.read("{" + RECEIVED + ",\"event\":[]}")).isNull();
        assertThat(PlainEventLine.read("{" + RECEIVED + "}")).isNull();
        assertThat(PlainEventLine.read("{\"event\":{\"hook_event_name\":\"Stop\"}}")).isNull();
        assertThat(PlainEventLine.read("[]")).isNull();
    }

    @Test
    void textTheTwoJsonWritersCouldPrintDifferentlyIsNotPlain() {
        for (String value : new String[] {"\"\\u00e9\"", "\"\\ud800\"", "1.5", "1e5", "1E+5", "-0", "0.0",
            "{\"a\":1,\"a\":2}", "[{\"b\":1,\"c\":{\"d\":1,\"d\":1}}]", "\"a\u0001b\"", "\"\\x\"", "01", "tru",
            "[" .repeat(70) + "]".repeat(70)}) {
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
        for (String line : new String[] {"", "{", "{\"a\"", "{\"a\":}", "{\"a\":1,}", "{\"a\":1} x", "{'a':1}",
            "{\"a\":[1,]}", "{\"a\":\"open}", "{\"a\":1 \"b\":2}"}) {
            assertThat(PlainEventLine.read(line)).as(line).isNull();
        }
    }

    @Test
    void keysMayRepeatInDifferentObjectsAndWhitespaceIsAllowed() {
        assertThat(PlainEventLine.read(" {" + RECEIVED + " , \"event\" : {\"hook_event_name\" : \"Stop\",\"a\":{\"a\":"
                + "{\"a\":1}},\"b\":[{\"a\":1},{\"a\":2}]} }\r")).isNotNull();
        assertThat(PlainEventLine.read("{" + RECEIVED + ",\"event\":{\"hook_event_name\":\"Stop\",\"n\":"
                + "-123456789012345678901234567890,\"z\":0,\"m\":-7}}")).isNotNull();
    }

    @Test
    void processorTakesThePlainPathOnlyForUntornUtf8LinesOfKnownEvents() {
        SpoolLineProcessor processor = new SpoolLineProcessor(new ProjectResolver());
        String line = "{\"spool\":1," + RECEIVED + ",\"event\":{\"session_id\":\"s\",\"hook_event_name\":\"Stop\"}}";

        IngestRecord plain = processor.process(new SpoolLine("f.jsonl", 4, line, true, false));

        LocalDateTime at = LocalDateTime.of(2025, 6, 1, 10, 15, 30, 123_456_000);
        assertThat(plain).isEqualTo(new IngestRecord.PlainEvent("f.jsonl", 4, line, at, at, ProjectResolver.UNKNOWN,
                "Stop\u0000s\u0000received:2025-06-01T10:15:30.123456Z\u0000", true));
        assertThat(processor.process(new SpoolLine("f.jsonl", 4, line, true, true)))
                .isInstanceOf(IngestRecord.Event.class);
        assertThat(processor.process(new SpoolLine("f.jsonl", 4, line, false, false)))
                .isInstanceOf(IngestRecord.Reject.class);
        assertThat(processor.process(new SpoolLine("f.jsonl", 4, line.replace("Stop", "Nope"), true, false)))
                .isInstanceOf(IngestRecord.Reject.class);
        assertThat(processor.process(new SpoolLine("f.jsonl", 4, line.replace("\"spool\":1,",
                "\"spool\":1,\"identity\":\"u-1:prompt\","), true, false)))
                .isEqualTo(new IngestRecord.PlainEvent("f.jsonl", 4, line.replace("\"spool\":1,",
                        "\"spool\":1,\"identity\":\"u-1:prompt\","), at, at, ProjectResolver.UNKNOWN,
                        "Stop\u0000identity:u-1:prompt", false));
    }
}

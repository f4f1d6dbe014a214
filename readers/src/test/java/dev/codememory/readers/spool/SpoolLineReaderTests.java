package dev.codememory.readers.spool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.codememory.config.ingest.SpoolLine;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.batch.infrastructure.item.ExecutionContext;
import org.springframework.batch.infrastructure.item.ItemStreamException;

class SpoolLineReaderTests {

    @TempDir
    Path tmp;

    @Test
    void readsAllLinesOfTheFilesInOrderWithLineNumbersPerFile() throws IOException {
        Path a = write("a.jsonl", "{\"n\":1}\n{\"n\":2}\n");
        Path b = write("b.jsonl", "{\"n\":3}\n{\"n\":4}\n{\"n\":5}\n");

        List<SpoolLine> lines = readAll(new SpoolLineReader(() -> List.of(a, b)), new ExecutionContext());

        assertThat(lines).containsExactly(new SpoolLine("a.jsonl", 1, "{\"n\":1}", true, false),
                new SpoolLine("a.jsonl", 2, "{\"n\":2}", true, false),
                new SpoolLine("b.jsonl", 1, "{\"n\":3}", true, false),
                new SpoolLine("b.jsonl", 2, "{\"n\":4}", true, false),
                new SpoolLine("b.jsonl", 3, "{\"n\":5}", true, false));
    }

    @Test
    void skipsBlankLinesButKeepsCountingThem() throws IOException {
        Path a = write("a.jsonl", "\n{\"n\":1}\n\n\n{\"n\":2}\n\n");

        List<SpoolLine> lines = readAll(new SpoolLineReader(() -> List.of(a)), new ExecutionContext());

        assertThat(lines).containsExactly(new SpoolLine("a.jsonl", 2, "{\"n\":1}", true, false),
                new SpoolLine("a.jsonl", 5, "{\"n\":2}", true, false));
    }

    @Test
    void keepsNonAsciiTextAndCarriageReturns() throws IOException {
        Path a = write("a.jsonl", "{\"k\":\"안녕 é 😀\"}\r\n");

        List<SpoolLine> lines = readAll(new SpoolLineReader(() -> List.of(a)), new ExecutionContext());

        assertThat(lines).containsExactly(new SpoolLine("a.jsonl", 1, "{\"k\":\"안녕 é 😀\"}\r", true, false));
    }

    @Test
    void lastLineWithoutNewlineIsTorn() throws IOException {
        Path a = write("a.jsonl", "{\"n\":1}\n{\"n\":2,\"cut");
        Path b = write("b.jsonl", "{\"n\":3}\n");

        List<SpoolLine> lines = readAll(new SpoolLineReader(() -> List.of(a, b)), new ExecutionContext());

        assertThat(lines).containsExactly(new SpoolLine("a.jsonl", 1, "{\"n\":1}", true, false),
                new SpoolLine("a.jsonl", 2, "{\"n\":2,\"cut", true, true),
                new SpoolLine("b.jsonl", 1, "{\"n\":3}", true, false));
    }

    @Test
    void invalidUtf8ComesBackFlaggedWithReplacementCharacters() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.writeBytes("{\"a\":\"".getBytes(StandardCharsets.UTF_8));
        bytes.write(0xFF);
        bytes.write(0xFE);
        bytes.writeBytes("\"}\n{\"ok\":1}\n".getBytes(StandardCharsets.UTF_8));
        bytes.write(0xC3); // truncated two-byte sequence at the very end, no newline
        Path a = Files.write(tmp.resolve("a.jsonl"), bytes.toByteArray());

        List<SpoolLine> lines = readAll(new SpoolLineReader(() -> List.of(a)), new ExecutionContext());

        assertThat(lines).containsExactly(new SpoolLine("a.jsonl", 1, "{\"a\":\"\uFFFD\uFFFD\"}", false, false),
                new SpoolLine("a.jsonl", 2, "{\"ok\":1}", true, false),
                new SpoolLine("a.jsonl", 3, "\uFFFD", false, true));
    }

    @Test
    void aReplacementCharacterWrittenInTheTextIsValidUtf8() throws IOException {
        Path a = write("a.jsonl", "{\"a\":\"\uFFFD\"}\n");

        List<SpoolLine> lines = readAll(new SpoolLineReader(() -> List.of(a)), new ExecutionContext());

        assertThat(lines).containsExactly(new SpoolLine("a.jsonl", 1, "{\"a\":\"\uFFFD\"}", true, false));
    }

    @Test
    void readsAThreeMegabyteLineWhole() throws IOException {
        String big = "{\"p\":\"" + "é".repeat(1_500_000) + "\"}"; // > 3 MB in UTF-8
        Path a = write("a.jsonl", "{\"n\":1}\n" + big + "\n{\"n\":3}\n");

        List<SpoolLine> lines = readAll(new SpoolLineReader(() -> List.of(a)), new ExecutionContext());

        assertThat(lines).hasSize(3);
        assertThat(lines.get(1).text()).isEqualTo(big);
        assertThat(lines.get(1).lineNumber()).isEqualTo(2);
        assertThat(lines.get(1).validUtf8()).isTrue();
        assertThat(lines.get(1).torn()).isFalse();
        assertThat(lines.get(2)).isEqualTo(new SpoolLine("a.jsonl", 3, "{\"n\":3}", true, false));
    }

    @Test
    void emptyListAndEmptyFilesReadNothing() throws IOException {
        Path empty = write("a.jsonl", "");
        Path blank = write("b.jsonl", "\n\n");

        assertThat(readAll(new SpoolLineReader(List::of), new ExecutionContext())).isEmpty();
        assertThat(readAll(new SpoolLineReader(() -> List.of(empty, blank)), new ExecutionContext())).isEmpty();
    }

    @Test
    void restartContinuesWithTheNextLineInTheSameFile() throws IOException {
        Path a = write("a.jsonl", lines(1, 6));
        ExecutionContext context = new ExecutionContext();

        SpoolLineReader first = new SpoolLineReader(() -> List.of(a));
        first.open(context);
        List<SpoolLine> before = read(first, 3);
        first.update(context);
        first.close();

        List<SpoolLine> after = readAll(new SpoolLineReader(() -> List.of(a)), context);

        assertThat(texts(before)).containsExactly("{\"n\":1}", "{\"n\":2}", "{\"n\":3}");
        assertThat(after).containsExactly(new SpoolLine("a.jsonl", 4, "{\"n\":4}", true, false),
                new SpoolLine("a.jsonl", 5, "{\"n\":5}", true, false),
                new SpoolLine("a.jsonl", 6, "{\"n\":6}", true, false));
        assertThat(context.getString("spoolLineReader.file")).isEqualTo("a.jsonl~");
    }

    @Test
    void restartContinuesAcrossAFileBoundary() throws IOException {
        Path a = write("a.jsonl", lines(1, 2));
        Path b = write("b.jsonl", lines(3, 5));
        Path c = write("c.jsonl", lines(6, 6));
        List<Path> files = List.of(a, b, c);

        for (int stopAfter = 0; stopAfter <= 6; stopAfter++) {
            ExecutionContext context = new ExecutionContext();
            SpoolLineReader first = new SpoolLineReader(() -> files);
            first.open(context);
            List<SpoolLine> before = read(first, stopAfter);
            first.update(context);
            first.close();

            List<SpoolLine> after = readAll(new SpoolLineReader(() -> files), context);

            List<String> all = new ArrayList<>(texts(before));
            all.addAll(texts(after));
            assertThat(all).as("stopped after %d", stopAfter)
                .containsExactly("{\"n\":1}", "{\"n\":2}", "{\"n\":3}", "{\"n\":4}", "{\"n\":5}", "{\"n\":6}");
        }
    }

    @Test
    void restartKeepsLineNumbersAndOffsetsAfterBlankAndLongLines() throws IOException {
        String big = "x".repeat(200_000);
        Path a = write("a.jsonl", "{\"n\":1}\n\n" + big + "\n\n{\"n\":4}\n{\"n\":5}\n");
        ExecutionContext context = new ExecutionContext();

        SpoolLineReader first = new SpoolLineReader(() -> List.of(a));
        first.open(context);
        List<SpoolLine> before = read(first, 2);
        first.update(context);
        first.close();
        assertThat(context.getString("spoolLineReader.file")).isEqualTo("a.jsonl");
        assertThat(context.getLong("spoolLineReader.line")).isEqualTo(3);
        assertThat(context.getLong("spoolLineReader.offset")).isEqualTo(8 + 1 + 200_000 + 1);

        List<SpoolLine> after = readAll(new SpoolLineReader(() -> List.of(a)), context);

        assertThat(before.get(1).lineNumber()).isEqualTo(3);
        assertThat(before.get(1).text()).isEqualTo(big);
        assertThat(after).containsExactly(new SpoolLine("a.jsonl", 5, "{\"n\":4}", true, false),
                new SpoolLine("a.jsonl", 6, "{\"n\":5}", true, false));
    }

    @Test
    void readerThatReadEverythingRestartsWithNothingToRead() throws IOException {
        Path a = write("a.jsonl", lines(1, 2));
        Path b = write("b.jsonl", lines(3, 3));
        ExecutionContext context = new ExecutionContext();

        List<SpoolLine> first = readAll(new SpoolLineReader(() -> List.of(a, b)), context);
        List<SpoolLine> second = readAll(new SpoolLineReader(() -> List.of(a, b)), context);

        assertThat(first).hasSize(3);
        assertThat(second).isEmpty();
        assertThat(context.getString("spoolLineReader.file")).isEqualTo("b.jsonl~");
        assertThat(context.getLong("spoolLineReader.offset")).isZero();
        assertThat(context.getLong("spoolLineReader.line")).isZero();
    }

    @Test
    void filesSealedAfterTheFirstOpenWaitForTheNextRun() throws IOException {
        Path a = write("20250601T100000.000000Z-1-1.jsonl", lines(1, 2));
        Path b = write("20250601T110000.000000Z-1-2.jsonl", lines(3, 4));
        List<Path> listed = new CopyOnWriteArrayList<>(List.of(a, b));
        ExecutionContext context = new ExecutionContext();

        SpoolLineReader first = new SpoolLineReader(() -> List.copyOf(listed));
        first.open(context);
        List<SpoolLine> before = read(first, 3);
        first.update(context);
        first.close();
        assertThat(context.getString("spoolLineReader.spool.last.file")).isEqualTo("20250601T110000.000000Z-1-2.jsonl");

        listed.add(write("20250601T120000.000000Z-1-3.jsonl", lines(5, 6)));
        List<SpoolLine> after = readAll(new SpoolLineReader(() -> List.copyOf(listed)), context);

        assertThat(texts(before)).containsExactly("{\"n\":1}", "{\"n\":2}", "{\"n\":3}");
        assertThat(after)
            .containsExactly(new SpoolLine("20250601T110000.000000Z-1-2.jsonl", 2, "{\"n\":4}", true, false));
        assertThat(context.getString("spoolLineReader.spool.last.file")).isEqualTo("20250601T110000.000000Z-1-2.jsonl");

        List<SpoolLine> nextRun = readAll(new SpoolLineReader(() -> List.copyOf(listed)), new ExecutionContext());
        assertThat(texts(nextRun)).containsExactly("{\"n\":1}", "{\"n\":2}", "{\"n\":3}", "{\"n\":4}", "{\"n\":5}",
                "{\"n\":6}");
    }

    @Test
    void lastFileIsRecordedAtOpen() throws IOException {
        Path a = write("a.jsonl", lines(1, 1));
        Path b = write("b.jsonl", lines(2, 2));
        ExecutionContext context = new ExecutionContext();

        SpoolLineReader reader = new SpoolLineReader(() -> List.of(a, b));
        reader.open(context);
        reader.close();

        assertThat(context.getString("spoolLineReader." + SpoolLineReader.LAST_FILE_KEY)).isEqualTo("b.jsonl");
        assertThat(context.containsKey("spoolLineReader.file")).isFalse();
    }

    @Test
    void restartSkipsAFileDeletedSinceAndStartsTheNextAtItsBeginning() throws IOException {
        Path a = write("a.jsonl", lines(1, 3));
        Path b = write("b.jsonl", lines(4, 5));
        ExecutionContext context = new ExecutionContext();
        SpoolLineReader first = new SpoolLineReader(() -> List.of(a, b));
        first.open(context);
        read(first, 1);
        first.update(context);
        first.close();

        List<SpoolLine> after = readAll(new SpoolLineReader(() -> List.of(b)), context);

        assertThat(after).containsExactly(new SpoolLine("b.jsonl", 1, "{\"n\":4}", true, false),
                new SpoolLine("b.jsonl", 2, "{\"n\":5}", true, false));
    }

    @Test
    void readAfterTheEndKeepsReturningNull() throws IOException {
        Path a = write("a.jsonl", lines(1, 1));
        SpoolLineReader reader = new SpoolLineReader(() -> List.of(a));
        reader.open(new ExecutionContext());

        assertThat(reader.read()).isEqualTo(new SpoolLine("a.jsonl", 1, "{\"n\":1}", true, false));
        assertThat(reader.read()).isNull();
        assertThat(reader.read()).isNull();
        reader.close();
    }

    @Test
    void missingFileFailsWithItsName() {
        Path missing = tmp.resolve("gone.jsonl");
        SpoolLineReader reader = new SpoolLineReader(() -> List.of(missing));
        reader.open(new ExecutionContext());

        assertThatThrownBy(reader::read).isInstanceOf(ItemStreamException.class)
            .hasMessage("cannot read spool file " + missing);
        reader.close();
    }

    private Path write(String name, String content) throws IOException {
        return Files.writeString(tmp.resolve(name), content, StandardCharsets.UTF_8);
    }

    private static String lines(int from, int to) {
        StringBuilder sb = new StringBuilder();
        for (int n = from; n <= to; n++) {
            sb.append("{\"n\":").append(n).append("}\n");
        }
        return sb.toString();
    }

    private static List<SpoolLine> read(SpoolLineReader reader, int count) {
        List<SpoolLine> lines = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            SpoolLine line = reader.read();
            assertThat(line).as("item %d", i + 1).isNotNull();
            lines.add(line);
        }
        return lines;
    }

    /**
     * Opens with the context, reads to the end, updates the context and closes, like one
     * step execution.
     */
    private static List<SpoolLine> readAll(SpoolLineReader reader, ExecutionContext context) {
        reader.open(context);
        List<SpoolLine> lines = new ArrayList<>();
        for (SpoolLine line = reader.read(); line != null; line = reader.read()) {
            lines.add(line);
        }
        reader.update(context);
        reader.close();
        return lines;
    }

    private static List<String> texts(List<SpoolLine> lines) {
        return lines.stream().map(SpoolLine::text).toList();
    }

}

package dev.codememory.readers.spool;

import dev.codememory.config.ingest.SpoolLine;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.function.Supplier;
import org.springframework.batch.infrastructure.item.ExecutionContext;
import org.springframework.batch.infrastructure.item.ItemStreamException;
import org.springframework.batch.infrastructure.item.ItemStreamReader;
import org.springframework.batch.infrastructure.item.ItemStreamSupport;

/**
 * Reads the lines of the sealed spool files, oldest first, as raw bytes split on '\n' (so
 * invalid UTF-8 and binary are seen, not thrown). Restartable: the execution context
 * keeps the file and byte offset of the next line, so a rerun after a crash resumes
 * exactly after the last committed chunk. The list of files is taken at open: files
 * sealed later wait for the next run.
 */
public class SpoolLineReader extends ItemStreamSupport implements ItemStreamReader<SpoolLine> {

    static final String FILE_KEY = "file";
    static final String OFFSET_KEY = "offset";
    static final String LINE_KEY = "line";

    /**
     * The last file this reader will read in this run; the job deletes files up to it
     * once committed.
     */
    public static final String LAST_FILE_KEY = "spool.last.file";

    private final Supplier<List<Path>> files;

    private List<Path> toRead;

    private int fileIndex;

    private InputStream in;

    private long offset;

    private long lineNumber;

    private final byte[] buffer = new byte[1 << 16];

    private final ByteArrayOutputStream spanning = new ByteArrayOutputStream(1 << 12);

    private int bufferPos;

    private int bufferLimit;

    public SpoolLineReader(Supplier<List<Path>> files) {
        this.files = files;
        setName("spoolLineReader");
    }

    @Override
    public void open(ExecutionContext context) {
        List<Path> listed = files.get();
        String resumeFile = context.containsKey(getExecutionContextKey(FILE_KEY))
                ? context.getString(getExecutionContextKey(FILE_KEY)) : null;
        String lastFile = context.containsKey(getExecutionContextKey(LAST_FILE_KEY))
                ? context.getString(getExecutionContextKey(LAST_FILE_KEY)) : null;
        toRead = listed.stream()
            .filter(p -> resumeFile == null || p.getFileName().toString().compareTo(resumeFile) >= 0)
            .filter(p -> lastFile == null || p.getFileName().toString().compareTo(lastFile) <= 0)
            .toList();
        fileIndex = 0;
        offset = 0;
        lineNumber = 0;
        if (resumeFile != null && !toRead.isEmpty() && name(toRead.get(0)).equals(resumeFile)) {
            offset = context.getLong(getExecutionContextKey(OFFSET_KEY));
            lineNumber = context.getLong(getExecutionContextKey(LINE_KEY));
        }
        if (!toRead.isEmpty()) {
            context.putString(getExecutionContextKey(LAST_FILE_KEY), name(toRead.get(toRead.size() - 1)));
        }
    }

    @Override
    public SpoolLine read() {
        try {
            while (fileIndex < toRead.size()) {
                if (in == null) {
                    FileChannel channel = FileChannel.open(toRead.get(fileIndex), StandardOpenOption.READ);
                    channel.position(offset);
                    in = Channels.newInputStream(channel);
                    bufferPos = 0;
                    bufferLimit = 0;
                }
                SpoolLine line = nextLine(name(toRead.get(fileIndex)));
                if (line != null) {
                    return line;
                }
                in.close();
                in = null;
                fileIndex++;
                offset = 0;
                lineNumber = 0;
            }
            return null;
        }
        catch (IOException e) {
            throw new ItemStreamException("cannot read spool file " + toRead.get(fileIndex), e);
        }
    }

    private SpoolLine nextLine(String file) throws IOException {
        while (true) {
            // a line inside the buffer is decoded from it; one that spans refills is
            // gathered in `spanning` first
            spanning.reset();
            int start = bufferPos;
            long consumed = 0;
            boolean newline = false;
            while (!newline) {
                if (bufferPos == bufferLimit) {
                    spanning.write(buffer, start, bufferPos - start);
                    bufferLimit = in.read(buffer, 0, buffer.length);
                    bufferPos = 0;
                    start = 0;
                    if (bufferLimit <= 0) {
                        bufferLimit = 0;
                        break;
                    }
                }
                int from = bufferPos;
                while (bufferPos < bufferLimit && buffer[bufferPos] != '\n') {
                    bufferPos++;
                }
                consumed += bufferPos - from;
                if (bufferPos < bufferLimit) {
                    newline = true;
                }
            }
            int end = bufferPos;
            if (newline) {
                bufferPos++; // the '\n'
                consumed++;
            }
            if (consumed == 0) {
                return null;
            }
            offset += consumed;
            lineNumber++;
            byte[] bytes;
            int from;
            int length;
            if (spanning.size() == 0) {
                bytes = buffer;
                from = start;
                length = end - start;
            }
            else {
                spanning.write(buffer, start, end - start);
                bytes = spanning.toByteArray();
                from = 0;
                length = bytes.length;
            }
            if (length == 0) {
                continue; // a blank line (e.g. the '\n' that ends a torn line): nothing
                          // to keep
            }
            // Decoding replaces each malformed sequence by U+FFFD: without one in the
            // result the bytes were UTF-8.
            String text = new String(bytes, from, length, StandardCharsets.UTF_8);
            boolean valid = text.indexOf('\uFFFD') < 0 || isValidUtf8(bytes, from, length);
            return new SpoolLine(file, lineNumber, text, valid, !newline);
        }
    }

    private static boolean isValidUtf8(byte[] bytes, int from, int length) {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
        try {
            decoder.decode(ByteBuffer.wrap(bytes, from, length));
            return true;
        }
        catch (CharacterCodingException e) {
            return false;
        }
    }

    @Override
    public void update(ExecutionContext context) {
        if (toRead == null) {
            return;
        }
        if (fileIndex < toRead.size()) {
            context.putString(getExecutionContextKey(FILE_KEY), name(toRead.get(fileIndex)));
            context.putLong(getExecutionContextKey(OFFSET_KEY), offset);
            context.putLong(getExecutionContextKey(LINE_KEY), lineNumber);
        }
        else if (!toRead.isEmpty()) {
            // everything read: resume point past the last file
            context.putString(getExecutionContextKey(FILE_KEY), name(toRead.get(toRead.size() - 1)) + "~");
            context.putLong(getExecutionContextKey(OFFSET_KEY), 0);
            context.putLong(getExecutionContextKey(LINE_KEY), 0);
        }
    }

    @Override
    public void close() {
        if (in != null) {
            try {
                in.close();
            }
            catch (IOException e) {
                throw new ItemStreamException("cannot close spool file", e);
            }
            finally {
                in = null;
            }
        }
    }

    private static String name(Path p) {
        return p.getFileName().toString();
    }

}

package dev.codememory.readers.transcript;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * How a transcript path is opened, wherever it comes from (a hook's
 * {@code transcript_path}, a path given to {@code import}): only a regular file is
 * opened, and only the bytes it held when it was opened are read.
 *
 * <p>
 * Anything else is refused before it is opened: opening a FIFO blocks until something
 * writes to it, a device or {@code /proc} file may never end, and a folder is no
 * transcript. A symbolic link is followed and its target must be a regular file: Claude
 * Code's folder is often reached through one (a moved or synced {@code ~/.claude}), and
 * the path comes from the same user, so refusing links would protect nothing the path
 * itself could not reach; what matters is what the link leads to. The check and the open
 * are two steps: a path swapped for a FIFO between them still blocks, which only another
 * process of the same user can do.
 */
public final class TranscriptFile {

    private TranscriptFile() {
    }

    /**
     * The file's bytes as they were at open (a file still growing is read up to that
     * size).
     * @throws IOException when the path is not a regular file (nothing is opened), or it
     * cannot be read
     */
    public static InputStream open(Path file) throws IOException {
        requireRegularFile(file);
        SeekableByteChannel channel = Files.newByteChannel(file);
        return new Bounded(Channels.newInputStream(channel), channel.size());
    }

    /**
     * The last {@code bytes} bytes of the file, or all of it when it is shorter.
     * @throws IOException when the path is not a regular file (nothing is opened), or it
     * cannot be read
     */
    public static byte[] tail(Path file, int bytes) throws IOException {
        requireRegularFile(file);
        try (SeekableByteChannel channel = Files.newByteChannel(file)) {
            long size = channel.size();
            long from = Math.max(0, size - bytes);
            ByteBuffer buffer = ByteBuffer.allocate((int) (size - from));
            channel.position(from);
            while (buffer.hasRemaining() && channel.read(buffer) > 0) {
                // fill the tail
            }
            return Arrays.copyOf(buffer.array(), buffer.position());
        }
    }

    private static void requireRegularFile(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new IOException((Files.exists(file) ? "not a regular file: " : "no such file: ") + file);
        }
    }

    /** A stream that ends after {@code remaining} bytes. */
    private static final class Bounded extends FilterInputStream {

        private long remaining;

        private Bounded(InputStream in, long remaining) {
            super(in);
            this.remaining = remaining;
        }

        @Override
        public int read() throws IOException {
            if (remaining <= 0) {
                return -1;
            }
            int b = super.read();
            if (b >= 0) {
                remaining--;
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (remaining <= 0) {
                return -1;
            }
            int n = super.read(b, off, (int) Math.min(len, remaining));
            if (n > 0) {
                remaining -= n;
            }
            return n;
        }

        @Override
        public long skip(long n) throws IOException {
            long skipped = super.skip(Math.min(n, remaining));
            remaining -= skipped;
            return skipped;
        }

        @Override
        public int available() throws IOException {
            return (int) Math.min(super.available(), remaining);
        }

    }

}

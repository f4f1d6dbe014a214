package dev.codememory.jobs.hook;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.Arrays;

/**
 * What the hook read from stdin within a time bound: Claude Code writes the event and
 * closes the pipe at once, but a caller that never closes it must not keep the hook (and
 * the session waiting on it) for good. The bytes are read on a daemon thread, which the
 * hook's exit ends if it is still blocked; {@link #ended()} says whether end-of-file came
 * within the bound, that is whether the input is the whole event.
 *
 * <p>
 * JDK only: this runs in the hook process.
 */
record StdinRead(byte[] bytes, boolean ended) {

    /**
     * Reads at most {@code maxBytes} until end-of-file or until {@code bound} has passed,
     * whichever comes first. A failing read is thrown as it would be without the bound.
     */
    static StdinRead within(InputStream in, int maxBytes, Duration bound) throws IOException {
        Reader reader = new Reader(in, maxBytes);
        reader.setDaemon(true);
        reader.start();
        return reader.await(System.nanoTime() + bound.toNanos());
    }

    /**
     * The reading thread; a subclass rather than a lambda, which would cost a fresh JVM
     * start-up time.
     */
    private static final class Reader extends Thread {

        private final InputStream in;

        private final int maxBytes;

        private byte[] buffer = new byte[64 * 1024];

        private int length;

        private boolean ended;

        private IOException failure;

        Reader(InputStream in, int maxBytes) {
            super("code-memory-stdin");
            this.in = in;
            this.maxBytes = maxBytes;
        }

        @Override
        public void run() {
            byte[] chunk = new byte[64 * 1024];
            try {
                while (true) {
                    int wanted = Math.min(chunk.length, maxBytes - lengthSoFar());
                    int n = wanted == 0 ? -1 : in.read(chunk, 0, wanted);
                    if (n < 0) {
                        finish(null);
                        return;
                    }
                    append(chunk, n);
                }
            }
            catch (IOException e) {
                finish(e);
            }
        }

        private synchronized int lengthSoFar() {
            return length;
        }

        private synchronized void append(byte[] chunk, int n) {
            if (length + n > buffer.length) {
                buffer = Arrays.copyOf(buffer, (int) Math.min(maxBytes, Math.max(length + n, 2L * buffer.length)));
            }
            System.arraycopy(chunk, 0, buffer, length, n);
            length += n;
        }

        private synchronized void finish(IOException e) {
            ended = true;
            failure = e;
            notifyAll();
        }

        synchronized StdinRead await(long deadline) throws IOException {
            long left;
            while (!ended && (left = deadline - System.nanoTime()) > 0) {
                try {
                    wait(Math.max(1, left / 1_000_000));
                }
                catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            if (failure != null) {
                throw failure;
            }
            return new StdinRead(Arrays.copyOf(buffer, length), ended);
        }

    }

}

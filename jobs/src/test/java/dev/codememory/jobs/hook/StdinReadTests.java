package dev.codememory.jobs.hook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The hook's bounded read of stdin, in this process: what {@code HookIntegrationTests}
 * checks through a real hook, down to the bytes.
 */
class StdinReadTests {

    @Test
    void readsEveryByteWhenTheInputEnds() throws IOException {
        byte[] event = new byte[200 * 1024]; // more than one read, more than the first
                                             // buffer
        for (int i = 0; i < event.length; i++) {
            event[i] = (byte) ('a' + i % 26);
        }

        StdinRead read = StdinRead.within(new ByteArrayInputStream(event), Integer.MAX_VALUE, Duration.ofSeconds(10));

        assertThat(read.ended()).isTrue();
        assertThat(read.bytes()).isEqualTo(event);
    }

    @Test
    void keepsWhatCameWhenTheInputIsStillOpenPastTheBound() throws IOException {
        try (PipedOutputStream writer = new PipedOutputStream(); PipedInputStream pipe = new PipedInputStream(writer)) {
            writer.write("{\"session_id\":\"s\"".getBytes());
            writer.flush();

            StdinRead read = StdinRead.within(pipe, Integer.MAX_VALUE, Duration.ofMillis(200));

            assertThat(read.ended()).isFalse();
            assertThat(new String(read.bytes())).isEqualTo("{\"session_id\":\"s\"");
        }
    }

    @Test
    void stopsAtTheMostItTakes() throws IOException {
        byte[] input = new byte[100_000];
        Arrays.fill(input, (byte) 'x');

        StdinRead read = StdinRead.within(new ByteArrayInputStream(input), 70_000, Duration.ofSeconds(10));

        assertThat(read.ended()).isTrue();
        assertThat(read.bytes()).hasSize(70_000);
    }

    @Test
    void aFailingReadIsThrown() {
        InputStream failing = new InputStream() {
            @Override
            public int read() throws IOException {
                throw new IOException("stdin failed");
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                throw new IOException("stdin failed");
            }
        };

        assertThatThrownBy(() -> StdinRead.within(failing, 1024, Duration.ofSeconds(10)))
            .isInstanceOf(IOException.class)
            .hasMessage("stdin failed");
    }

}

package dev.codememory.jobs.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcessLockTests {

    @TempDir
    Path dir;

    @Test
    void holderWritesItsPidAndReleasesOnClose() throws Exception {
        Path file = dir.resolve("jobs.lock");
        try (ProcessLock lock = ProcessLock.acquire(file)) {
            assertThat(Files.readString(file)).isEqualTo(Long.toString(ProcessHandle.current().pid()));
        }
        assertThat(Files.readString(file)).isEmpty();
        try (ProcessLock again = ProcessLock.acquire(file)) {
            assertThat(Files.readString(file)).isNotEmpty();
        }
    }

    @Test
    void secondHolderIsRefused() {
        Path file = dir.resolve("jobs.lock");
        try (ProcessLock lock = ProcessLock.acquire(file)) {
            assertThatThrownBy(() -> ProcessLock.acquire(file)).isInstanceOf(ProcessLock.JobsBusyException.class);
        }
    }

    @Test
    void anotherProcessHoldingTheLockIsNamed() throws Exception {
        Path file = dir.resolve("jobs.lock");
        // a real second process holds the lock: a tiny Java program that locks and waits
        Path source = dir.resolve("Hold.java");
        Files.writeString(source,
                """
                        import java.nio.channels.FileChannel;
                        import java.nio.file.*;
                        public class Hold {
                            public static void main(String[] a) throws Exception {
                                FileChannel c = FileChannel.open(Path.of(a[0]), StandardOpenOption.WRITE, StandardOpenOption.CREATE);
                                c.lock();
                                c.write(java.nio.ByteBuffer.wrap(Long.toString(ProcessHandle.current().pid()).getBytes()), 0);
                                System.out.println("locked");
                                System.out.flush();
                                Thread.sleep(60_000);
                            }
                        }""");
        Process holder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                source.toString(), file.toString())
            .redirectErrorStream(true)
            .start();
        try {
            assertThat(new String(holder.getInputStream().readNBytes(6))).isEqualTo("locked");

            assertThatThrownBy(() -> ProcessLock.acquire(file)).isInstanceOf(ProcessLock.JobsBusyException.class)
                .hasMessageContaining("process " + holder.pid());
        }
        finally {
            holder.destroyForcibly().waitFor();
        }
    }

}

package dev.codememory.capture.spool;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A real small file system for tests of a full disk: a tmpfs of a given size, mounted on
 * a folder. Mounting needs root (or the right capability); where it is not allowed the
 * calling test is skipped, not failed. Shared with the jobs module's tests
 * (capture-tests.jar).
 */
public final class SmallDisk {

    private SmallDisk() {
    }

    public static void mount(Path dir, String size) throws IOException, InterruptedException {
        int exit = run("mount", "-t", "tmpfs", "-o", "size=" + size + ",mode=0700", "tmpfs", dir.toString());
        Assumptions.assumeTrue(exit == 0, "mounting a tmpfs is not allowed here");
    }

    public static void unmount(Path dir) throws IOException, InterruptedException {
        run("umount", dir.toString());
    }

    /** Writes a file until the disk is full, then frees {@code bytes} of it. */
    public static void fillLeaving(Path file, long bytes) throws IOException {
        byte[] block = new byte[1024];
        try (OutputStream out = Files.newOutputStream(file, StandardOpenOption.CREATE_NEW)) {
            while (true) {
                out.write(block);
                out.flush();
            }
        }
        catch (IOException full) {
            // the disk is full
        }
        try (var channel = java.nio.channels.FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.truncate(Math.max(0, channel.size() - bytes));
        }
    }

    private static int run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return -1;
        }
        return p.exitValue();
    }

}

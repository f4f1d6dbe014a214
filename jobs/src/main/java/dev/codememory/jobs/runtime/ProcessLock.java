package dev.codememory.jobs.runtime;

import dev.codememory.config.home.CodeMemoryHome;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One job at a time per home, across processes: an exclusive lock on {@code jobs.lock}
 * that records the holder's PID, so a second process can say who is busy. The OS drops
 * the lock when the holder dies (kill -9).
 */
public final class ProcessLock implements AutoCloseable {

    private final FileChannel channel;

    private final FileLock lock;

    private ProcessLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    public static ProcessLock acquire(Path file) {
        CodeMemoryHome.createPrivateFile(file);
        FileChannel channel = null;
        try {
            channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
            FileLock lock = channel.tryLock();
            if (lock == null) {
                String holder = Files.readString(file, StandardCharsets.UTF_8).strip();
                channel.close();
                throw new JobsBusyException(
                        "another code-memory job is running" + (holder.isEmpty() ? "" : " (process " + holder + ")")
                                + "; it holds " + file + ". Wait for it to finish or stop it.");
            }
            channel.truncate(0);
            channel.write(
                    ByteBuffer.wrap(Long.toString(ProcessHandle.current().pid()).getBytes(StandardCharsets.UTF_8)), 0);
            channel.force(false);
            return new ProcessLock(channel, lock);
        }
        catch (OverlappingFileLockException e) {
            closeQuietly(channel);
            throw new JobsBusyException("a job is already running in this process");
        }
        catch (IOException e) {
            closeQuietly(channel);
            throw new JobsBusyException("cannot lock " + file + ": " + e.getMessage());
        }
    }

    /**
     * The lock if it is free, else empty (another process holds it: {@link #holder} names
     * it). For a lock that means "this process is the one" rather than "wait your turn",
     * such as the resident {@code serve}.
     */
    public static java.util.Optional<ProcessLock> tryAcquire(Path file) {
        try {
            return java.util.Optional.of(acquire(file));
        }
        catch (JobsBusyException e) {
            return java.util.Optional.empty();
        }
    }

    /** The PID recorded in a lock file, or empty. */
    public static String holder(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8).strip();
        }
        catch (IOException e) {
            return "";
        }
    }

    @Override
    public void close() {
        try {
            channel.truncate(0);
            lock.release();
            channel.close();
        }
        catch (IOException e) {
            // the lock goes with the channel anyway
        }
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            }
            catch (IOException ignored) {
                // nothing to add
            }
        }
    }

    /** Another process (or this one) is running a job on the same home. */
    public static class JobsBusyException extends RuntimeException {

        public JobsBusyException(String message) {
            super(message);
        }

    }

}

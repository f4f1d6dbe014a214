package dev.codememory.capture.spool;

import dev.codememory.config.home.CodeMemoryHome;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The spool: hook processes append lines to {@code spool/current.jsonl}; the ingest job
 * seals that file into {@code spool/sealed/} and loads sealed files only. Claude Code
 * runs hooks in parallel, so every append and every seal holds an exclusive lock on
 * {@code spool/.lock}: lines never interleave, and no append can land in a file the
 * ingest job already took. Appends are fsync'd before the hook exits.
 *
 * <p>
 * JDK only: this runs in the hook process.
 */
public final class Spool {

    static final String CURRENT = "current.jsonl";

    private static final String LOCK = ".lock";

    /**
     * Present while appends fail (a full disk): created by the first failing append,
     * which the hook then reports to the user, and removed by the next append that
     * succeeds. It holds the time of that first failure and its reason.
     */
    static final String FAILING = "capture-failing";

    /** The reason given when the failure's text did not fit on the disk either. */
    public static final String UNRECORDED = "not recorded: there was no room to write it";

    /** Since when appends have failed, and why (the first failure's message). */
    public record Failure(Instant since, String reason) {
    }

    /**
     * Only sealing names files by time: a holder, so that a hook, which only appends,
     * never sets up {@code java.time.format} (a pattern formatter costs a fresh JVM
     * several milliseconds).
     */
    private static final class SealName {

        static final DateTimeFormatter FORMAT = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss.SSSSSS'Z'")
            .withZone(ZoneOffset.UTC);

    }

    private static final AtomicLong SEAL_COUNTER = new AtomicLong();

    private static final ConcurrentMap<Path, ReentrantLock> JVM_LOCKS = new ConcurrentHashMap<>();

    private final Path spoolDir;

    private final Path sealedDir;

    public Spool(Path spoolDir, Path sealedDir) {
        this.spoolDir = spoolDir;
        this.sealedDir = sealedDir;
    }

    public static Spool forHome(CodeMemoryHome home) {
        return new Spool(home.spool(), home.sealedSpool());
    }

    public Path currentFile() {
        return spoolDir.resolve(CURRENT);
    }

    /**
     * Appends one line (a '\n' is added) durably. The line must not contain a raw
     * newline.
     */
    public void append(String line) throws IOException {
        checkLine(line);
        byte[] text = line.getBytes(StandardCharsets.UTF_8);
        byte[] bytes = Arrays.copyOf(text, text.length + 1); // one copy of a long line,
                                                             // not four
        bytes[text.length] = '\n';
        write(bytes);
    }

    /**
     * Appends lines under one lock and one fsync (used by import, which replays many
     * lines).
     */
    public void appendAll(List<String> lines) throws IOException {
        StringBuilder sb = new StringBuilder();
        for (String line : lines) {
            checkLine(line);
            sb.append(line).append('\n');
        }
        write(sb.toString().getBytes(StandardCharsets.UTF_8));
    }

    private static void checkLine(String line) {
        if (line.indexOf('\n') >= 0 || line.indexOf('\r') >= 0) {
            throw new IllegalArgumentException("a spool line must not contain a raw line break");
        }
    }

    private void write(byte[] bytes) throws IOException {
        ensureDirectories();
        ReentrantLock jvmLock = jvmLock();
        jvmLock.lock();
        try (FileChannel lockChannel = openLock(); FileLock ignored = lockChannel.lock()) {
            Path current = currentFile();
            boolean created = !Files.exists(current);
            try (FileChannel out = FileChannel.open(current, openOptions(created), fileAttributes(created))) {
                ByteBuffer buffer = ByteBuffer.wrap(bytes);
                if (!created && endsWithoutNewline(out)) {
                    // a hook killed mid-write left a torn line: end it so it is rejected
                    // alone, not glued to ours
                    buffer = ByteBuffer.allocate(bytes.length + 1).put((byte) '\n').put(bytes).flip();
                }
                long end = out.size(); // under the lock nobody else writes, so the end is
                                       // ours
                long position = end;
                try {
                    while (buffer.hasRemaining()) {
                        position += out.write(buffer, position);
                    }
                    out.force(true);
                }
                catch (IOException e) {
                    cutBack(out, end);
                    throw e;
                }
            }
            if (created) {
                forceDirectory(spoolDir);
            }
            Files.deleteIfExists(spoolDir.resolve(FAILING));
        }
        finally {
            jvmLock.unlock();
        }
    }

    /**
     * Takes back the part of a line a failed append wrote (a full disk takes what fits
     * and refuses the rest), so the spool ends with a whole line, as before the append.
     * Cutting a file back needs no space.
     */
    private static void cutBack(FileChannel out, long end) {
        try {
            out.truncate(end);
            out.force(true);
        }
        catch (IOException e) {
            // the next append ends the torn line with a newline, so it is rejected
            // alone
        }
    }

    /**
     * Records that an append failed with {@code e}. True only for the first failure since
     * the last append that succeeded, so the caller tells the user once; also true when
     * the record cannot be made (then nothing remembers that the user was told).
     */
    public boolean recordFailure(IOException e) {
        Path marker = spoolDir.resolve(FAILING);
        try {
            Files.createFile(marker, fileAttributes(true));
        }
        catch (java.nio.file.FileAlreadyExistsException alreadyTold) {
            return false;
        }
        catch (IOException | RuntimeException cannotRecord) {
            return Files.isDirectory(spoolDir);
        }
        // an empty marker still says since when (its time); the text may not fit
        try {
            Files.writeString(marker, Instant.now() + "\n" + reason(e) + "\n", StandardCharsets.UTF_8);
        }
        catch (IOException | RuntimeException noSpace) {
            // the file's own time stands for the moment
        }
        return true;
    }

    /** Since when appends have failed, if the last one did. */
    public java.util.Optional<Failure> failure() throws IOException {
        Path marker = spoolDir.resolve(FAILING);
        if (!Files.exists(marker)) {
            return java.util.Optional.empty();
        }
        List<String> lines = Files.readAllLines(marker, StandardCharsets.UTF_8);
        Instant since;
        try {
            since = Instant.parse(lines.get(0));
        }
        catch (RuntimeException unreadable) {
            since = Files.getLastModifiedTime(marker).toInstant();
        }
        String reason = lines.size() > 1 && !lines.get(1).isBlank() ? lines.get(1) : UNRECORDED;
        return java.util.Optional.of(new Failure(since, reason));
    }

    /**
     * The failure's message on one line (an exception's message names a path at most).
     */
    static String reason(IOException e) {
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return message.replace('\n', ' ').replace('\r', ' ');
    }

    /**
     * Moves {@code current.jsonl} into {@code sealed/} under the lock, so the ingest job
     * reads only files no hook will write again. Returns the sealed file, or null when
     * there was nothing to seal.
     */
    public Path seal() throws IOException {
        ensureDirectories();
        ReentrantLock jvmLock = jvmLock();
        jvmLock.lock();
        try (FileChannel lockChannel = openLock(); FileLock ignored = lockChannel.lock()) {
            Path current = currentFile();
            if (!Files.exists(current) || Files.size(current) == 0) {
                return null;
            }
            String name = SealName.FORMAT.format(Instant.now()) + "-" + ProcessHandle.current().pid() + "-"
                    + String.format("%06d", SEAL_COUNTER.incrementAndGet() % 1_000_000) + ".jsonl";
            Path sealed = sealedDir.resolve(name);
            Files.move(current, sealed, StandardCopyOption.ATOMIC_MOVE);
            forceDirectory(sealedDir);
            forceDirectory(spoolDir);
            return sealed;
        }
        finally {
            jvmLock.unlock();
        }
    }

    /** Sealed files in the order they were sealed. */
    public List<Path> sealedFiles() throws IOException {
        List<Path> files = new ArrayList<>();
        if (!Files.isDirectory(sealedDir)) {
            return files;
        }
        try (var stream = Files.list(sealedDir)) {
            stream.filter(p -> p.getFileName().toString().endsWith(".jsonl")).sorted().forEach(files::add);
        }
        return files;
    }

    private void ensureDirectories() {
        if (!Files.isDirectory(sealedDir)) {
            CodeMemoryHome.createPrivateDirectory(spoolDir);
            CodeMemoryHome.createPrivateDirectory(sealedDir);
        }
    }

    /**
     * A file lock belongs to the whole JVM: a second thread asking for it gets
     * OverlappingFileLockException instead of waiting. Threads of one JVM therefore queue
     * on this lock first, one per spool folder.
     */
    private ReentrantLock jvmLock() throws IOException {
        Path key = spoolDir.toRealPath();
        ReentrantLock lock = JVM_LOCKS.get(key);
        if (lock == null) { // no lambda here: the hook is a short-lived JVM and a first
                            // lambda costs start-up time
            ReentrantLock fresh = new ReentrantLock();
            lock = JVM_LOCKS.putIfAbsent(key, fresh);
            lock = lock == null ? fresh : lock;
        }
        return lock;
    }

    private FileChannel openLock() throws IOException {
        Path lock = spoolDir.resolve(LOCK);
        if (!Files.exists(lock)) {
            CodeMemoryHome.createPrivateFile(lock);
        }
        return FileChannel.open(lock, StandardOpenOption.WRITE);
    }

    private static Set<StandardOpenOption> openOptions(boolean create) {
        return create ? Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND)
                : Set.of(StandardOpenOption.WRITE, StandardOpenOption.READ);
    }

    private static java.nio.file.attribute.FileAttribute<?>[] fileAttributes(boolean create) {
        if (!create) {
            return new java.nio.file.attribute.FileAttribute<?>[0];
        }
        try {
            return new java.nio.file.attribute.FileAttribute<?>[] {
                    PosixFilePermissions.asFileAttribute(CodeMemoryHome.filePermissions()) };
        }
        catch (UnsupportedOperationException e) {
            return new java.nio.file.attribute.FileAttribute<?>[0];
        }
    }

    private static boolean endsWithoutNewline(FileChannel channel) throws IOException {
        long size = channel.size();
        if (size == 0) {
            return false;
        }
        ByteBuffer last = ByteBuffer.allocate(1);
        channel.read(last, size - 1);
        return last.get(0) != '\n';
    }

    /**
     * Makes a new directory entry durable (Linux allows fsync on a directory; elsewhere
     * it is skipped).
     */
    private static void forceDirectory(Path dir) {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        }
        catch (IOException | UnsupportedOperationException e) {
            // not supported on this platform
        }
    }

}

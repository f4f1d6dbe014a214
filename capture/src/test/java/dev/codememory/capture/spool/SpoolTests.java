package dev.codememory.capture.spool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.config.json.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpoolTests {

    @TempDir
    Path tmp;

    private Path spool;

    private Path sealed;

    private Spool appender;

    @BeforeEach
    void createAppender() {
        spool = tmp.resolve("spool");
        sealed = spool.resolve("sealed");
        appender = new Spool(spool, sealed);
    }

    @Test
    void appendWritesOneLineWithANewline() throws IOException {
        appender.append("{\"n\":1}");
        appender.append("{\"k\":\"안녕\"}");

        assertThat(appender.currentFile()).isEqualTo(spool.resolve("current.jsonl"));
        assertThat(Files.readString(appender.currentFile())).isEqualTo("{\"n\":1}\n{\"k\":\"안녕\"}\n");
    }

    @Test
    void appendAllWritesEveryLineInOrder() throws IOException {
        appender.append("{\"n\":0}");
        appender.appendAll(List.of("{\"n\":1}", "{\"n\":2}", "{\"n\":3}"));
        appender.appendAll(List.of());

        assertThat(Files.readAllLines(appender.currentFile())).containsExactly("{\"n\":0}", "{\"n\":1}", "{\"n\":2}",
                "{\"n\":3}");
    }

    @Test
    void tornLastLineIsEndedBeforeTheNextAppend() throws IOException {
        appender.append("{\"n\":1}");
        Files.write(appender.currentFile(), "{\"n\":2,\"cut".getBytes(StandardCharsets.UTF_8),
                StandardOpenOption.APPEND);

        appender.append("{\"n\":3}");

        assertThat(Files.readString(appender.currentFile())).isEqualTo("{\"n\":1}\n{\"n\":2,\"cut\n{\"n\":3}\n");
        assertThat(Files.readAllLines(appender.currentFile())).containsExactly("{\"n\":1}", "{\"n\":2,\"cut",
                "{\"n\":3}");
    }

    @Test
    void lineWithALineBreakIsRefusedAndNothingIsWritten() throws IOException {
        appender.append("{\"n\":1}");

        assertThatThrownBy(() -> appender.append("{\"a\":\n1}")).isInstanceOf(IllegalArgumentException.class)
            .hasMessage("a spool line must not contain a raw line break");
        assertThatThrownBy(() -> appender.append("{\"a\":\r1}")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> appender.appendAll(List.of("{\"ok\":1}", "bad\n")))
            .isInstanceOf(IllegalArgumentException.class);

        assertThat(Files.readString(appender.currentFile())).isEqualTo("{\"n\":1}\n");
    }

    @Test
    void sealMovesTheCurrentFileIntoSealed() throws IOException {
        appender.append("{\"n\":1}");
        appender.append("{\"n\":2}");

        Path sealedFile = appender.seal();

        assertThat(sealedFile).isNotNull();
        assertThat(sealedFile.getParent()).isEqualTo(sealed);
        assertThat(sealedFile.getFileName().toString())
            .matches("\\d{8}T\\d{6}\\.\\d{6}Z-" + ProcessHandle.current().pid() + "-\\d+\\.jsonl");
        assertThat(Files.readString(sealedFile)).isEqualTo("{\"n\":1}\n{\"n\":2}\n");
        assertThat(appender.currentFile()).doesNotExist();

        appender.append("{\"n\":3}");

        assertThat(Files.readString(appender.currentFile())).isEqualTo("{\"n\":3}\n");
        assertThat(Files.readString(sealedFile)).isEqualTo("{\"n\":1}\n{\"n\":2}\n");
    }

    @Test
    void sealReturnsNullWhenThereIsNothingToSeal() throws IOException {
        assertThat(appender.seal()).isNull();

        Files.createFile(appender.currentFile());

        assertThat(appender.seal()).isNull();
        assertThat(appender.currentFile()).exists();
        assertThat(appender.sealedFiles()).isEmpty();
    }

    @Test
    void sealedFilesAreListedInSealOrder() throws IOException {
        assertThat(appender.sealedFiles()).isEmpty();
        List<Path> sealedInOrder = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            appender.append("{\"n\":" + i + "}");
            sealedInOrder.add(appender.seal());
        }
        Files.writeString(sealed.resolve("notes.txt"), "not a spool file");

        List<Path> listed = appender.sealedFiles();

        assertThat(listed).containsExactlyElementsOf(sealedInOrder);
        assertThat(listed).isSortedAccordingTo(Path::compareTo);
        for (int i = 0; i < 5; i++) {
            assertThat(Files.readString(listed.get(i))).isEqualTo("{\"n\":" + i + "}\n");
        }
    }

    @Test
    void filesAndFoldersAreOwnerOnly() throws IOException {
        appender.append("{\"n\":1}");

        assertThat(permissions(appender.currentFile())).isEqualTo("rw-------");
        assertThat(permissions(spool.resolve(".lock"))).isEqualTo("rw-------");
        assertThat(permissions(spool)).isEqualTo("rwx------");
        assertThat(permissions(sealed)).isEqualTo("rwx------");
        assertThat(permissions(appender.seal())).isEqualTo("rw-------");
    }

    @Test
    void forHomeUsesTheHomeSpoolFolders() throws IOException {
        CodeMemoryHome home = new CodeMemoryHome(tmp.resolve("home"));
        Spool forHome = Spool.forHome(home);

        forHome.append("{\"n\":1}");
        Path sealedFile = forHome.seal();

        assertThat(forHome.currentFile()).isEqualTo(home.spool().resolve("current.jsonl"));
        assertThat(sealedFile.getParent()).isEqualTo(home.sealedSpool());
        assertThat(forHome.sealedFiles()).containsExactly(sealedFile);
    }

    @Test
    void concurrentAppendsInOneJvmKeepEveryLineIntact() throws Exception {
        int threads = 8;
        int perThread = 200;
        String padding = "p".repeat(5000); // lines larger than a pipe buffer / page
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> futures = new ArrayList<>();
        try {
            for (int t = 0; t < threads; t++) {
                int thread = t;
                futures.add(pool.submit(() -> {
                    start.await();
                    Spool own = new Spool(spool, sealed);
                    for (int i = 0; i < perThread; i++) {
                        (i % 2 == 0 ? appender : own)
                            .append("{\"id\":\"" + thread + "-" + i + "\",\"pad\":\"" + padding + "\"}");
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> future : futures) {
                future.get(60, TimeUnit.SECONDS);
            }
        }
        finally {
            pool.shutdownNow();
        }

        List<String> lines = Files.readAllLines(appender.currentFile());
        Set<String> ids = new HashSet<>();
        for (String line : lines) {
            Map<?, ?> parsed = (Map<?, ?>) Json.parse(line);
            assertThat(parsed.get("pad")).isEqualTo(padding);
            ids.add((String) parsed.get("id"));
        }
        Set<String> expected = new HashSet<>();
        for (int t = 0; t < threads; t++) {
            for (int i = 0; i < perThread; i++) {
                expected.add(t + "-" + i);
            }
        }
        assertThat(lines).hasSize(1600);
        assertThat(ids).isEqualTo(expected);
    }

    @Test
    void sealWhileAppendingLosesNoLine() throws Exception {
        int count = 500;
        ExecutorService pool = Executors.newSingleThreadExecutor();
        List<Path> sealedFiles = new ArrayList<>();
        try {
            Future<?> writer = pool.submit(() -> {
                for (int i = 0; i < count; i++) {
                    appender.append("{\"id\":" + i + "}");
                }
                return null;
            });
            while (!writer.isDone()) {
                Path file = appender.seal();
                if (file != null) {
                    sealedFiles.add(file);
                }
            }
            writer.get(60, TimeUnit.SECONDS);
        }
        finally {
            pool.shutdownNow();
        }
        Path last = appender.seal();
        if (last != null) {
            sealedFiles.add(last);
        }

        List<String> lines = new ArrayList<>();
        for (Path file : appender.sealedFiles()) {
            lines.addAll(Files.readAllLines(file));
        }
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            expected.add("{\"id\":" + i + "}");
        }
        assertThat(appender.sealedFiles()).containsExactlyElementsOf(sealedFiles);
        assertThat(lines).containsExactlyElementsOf(expected);
    }

    private static String permissions(Path path) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
    }

    /**
     * On a real full file system (a 64 KiB tmpfs; mounting one needs root, else the test
     * is skipped): an append that does not fit leaves no part of its line, the failure is
     * recorded once, and the next append after space returns succeeds and clears it.
     */
    @Test
    void aFullDiskLeavesNoPartOfALineAndCaptureRecoversWhenSpaceReturns() throws Exception {
        Path disk = Files.createDirectories(tmp.resolve("disk"));
        SmallDisk.mount(disk, "64k");
        try {
            Spool full = new Spool(disk.resolve("spool"), disk.resolve("spool/sealed"));
            full.append("{\"n\":1}");
            Path filler = disk.resolve("filler");
            SmallDisk.fillLeaving(filler, 8 * 1024);
            byte[] before = Files.readAllBytes(full.currentFile());

            IOException failed = null;
            try {
                full.append("{\"n\":2,\"big\":\"" + "x".repeat(64 * 1024) + "\"}");
            }
            catch (IOException e) {
                failed = e;
            }

            assertThat(failed).as("the append that does not fit fails").isNotNull();
            assertThat(Files.readAllBytes(full.currentFile())).isEqualTo(before);
            assertThat(full.recordFailure(failed)).isTrue();
            assertThat(full.recordFailure(failed)).as("told once").isFalse();
            Spool.Failure failure = full.failure().orElseThrow();
            assertThat(failure.reason()).isEqualTo(failed.getMessage());
            assertThat(failure.since()).isBefore(java.time.Instant.now().plusSeconds(1));

            Files.delete(filler);
            full.append("{\"n\":3}");

            assertThat(Files.readAllLines(full.currentFile())).containsExactly("{\"n\":1}", "{\"n\":3}");
            assertThat(full.failure()).isEmpty();
            assertThat(full.recordFailure(failed)).as("a new failure is told again").isTrue();
        }
        finally {
            SmallDisk.unmount(disk);
        }
    }

}

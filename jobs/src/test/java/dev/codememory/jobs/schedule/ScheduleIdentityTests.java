package dev.codememory.jobs.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.codememory.config.home.CodeMemoryHome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScheduleIdentityTests {

    @TempDir
    Path tmp;

    @Test
    void twoServesStartedInOneMillisecondOnOneHostHaveTwoInstanceIds() {
        // Quartz's AUTO (host and start time) gave both the same id
        assertThat(java.util.stream.IntStream.range(0, 100).mapToObj(i -> ScheduleIdentity.instanceId()))
            .doesNotHaveDuplicates();
    }

    @Test
    void schedulerNameIsTheHomesIdWrittenOnceAndKept() throws Exception {
        CodeMemoryHome home = new CodeMemoryHome(tmp.resolve("home")).ensureCreated();

        String name = ScheduleIdentity.schedulerName(home);

        String id = Files.readString(home.root().resolve("home-id")).strip();
        assertThat(id).matches("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}");
        assertThat(name).isEqualTo("code-memory-" + id);
        assertThat(ScheduleIdentity.schedulerName(home)).isEqualTo(name);
        // the same home mounted elsewhere is the same home
        Path elsewhere = tmp.resolve("mounted-elsewhere");
        Files.createSymbolicLink(elsewhere, home.root());
        assertThat(ScheduleIdentity.schedulerName(new CodeMemoryHome(elsewhere))).isEqualTo(name);
        // no temporary file is left behind
        try (var files = Files.list(home.root())) {
            assertThat(files.map(p -> p.getFileName().toString()).filter(f -> f.startsWith("home-id")))
                .containsExactly("home-id");
        }
    }

    @Test
    void anotherHomeHasAnotherName() {
        CodeMemoryHome alice = new CodeMemoryHome(tmp.resolve("alice")).ensureCreated();
        CodeMemoryHome bob = new CodeMemoryHome(tmp.resolve("bob")).ensureCreated();

        assertThat(ScheduleIdentity.schedulerName(alice)).isNotEqualTo(ScheduleIdentity.schedulerName(bob));
    }

    @Test
    void processesStartingAtOnceAgreeOnTheHomesId() throws Exception {
        CodeMemoryHome home = new CodeMemoryHome(tmp.resolve("home")).ensureCreated();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Callable<String>> starts = IntStream.range(0, 8)
                .<Callable<String>>mapToObj(i -> () -> ScheduleIdentity.schedulerName(home))
                .toList();
            Set<String> names = new java.util.HashSet<>();
            for (Future<String> name : pool.invokeAll(starts)) {
                names.add(name.get());
            }

            assertThat(names).hasSize(1);
        }
        finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aFileThatHoldsNoIdIsReportedNotUsed() throws Exception {
        CodeMemoryHome home = new CodeMemoryHome(tmp.resolve("home")).ensureCreated();
        Files.writeString(home.root().resolve("home-id"), "bob's laptop\n");

        assertThatThrownBy(() -> ScheduleIdentity.schedulerName(home)).hasMessageContaining("does not hold a home id");
    }

}

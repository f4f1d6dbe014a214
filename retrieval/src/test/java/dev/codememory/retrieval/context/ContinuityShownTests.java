package dev.codememory.retrieval.context;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.capture.spool.Spool;
import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.config.injection.Injection;
import dev.codememory.writers.injection.InjectionRecorder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ContinuityShownTests {

    @TempDir
    Path tmp;

    @Test
    void theSessionStartsBlockWaitingInTheSpoolIsShownAndOtherSessionsOrBandsAreNot() throws Exception {
        CodeMemoryHome home = new CodeMemoryHome(tmp).ensureCreated();
        Spool spool = Spool.forHome(home);
        spool.append(sessionStart("s-1"));
        InjectionRecorder.record(home, injection("s-1", "SessionStart", "session_start", "mem:aaaaaa", "mem:bbbbbb"));
        InjectionRecorder.record(home, injection("s-2", "SessionStart", "session_start", "mem:cccccc"));
        InjectionRecorder.record(home, injection("s-1", "UserPromptSubmit", "suggested", "mem:dddddd"));
        spool.append("{\"spool\":1,\"record\":\"inj"); // a line being appended

        assertThat(ContinuityShown.citations(home, "s-1", Set.of())).containsExactly("mem:aaaaaa", "mem:bbbbbb");
        assertThat(ContinuityShown.citations(home, "s-3", Set.of("mem:eeeeee"))).containsExactly("mem:eeeeee");
    }

    @Test
    void aLaterSessionStartEmptiesTheContextOfWhatCameBeforeItInTheDatabaseOrTheSpool() throws Exception {
        CodeMemoryHome home = new CodeMemoryHome(tmp).ensureCreated();
        Spool spool = Spool.forHome(home);
        InjectionRecorder.record(home, injection("s-1", "UserPromptSubmit", "continuity", "mem:aaaaaa"));
        spool.seal();
        spool.append(sessionStart("s-1")); // /compact: SessionStart again, nothing
                                           // injected this time

        assertThat(ContinuityShown.citations(home, "s-1", Set.of("mem:bbbbbb"))).isEmpty();

        InjectionRecorder.record(home, injection("s-1", "SessionStart", "session_start", "mem:cccccc"));
        assertThat(ContinuityShown.citations(home, "s-1", Set.of("mem:bbbbbb"))).containsExactly("mem:cccccc");
        assertThat(Files.list(home.sealedSpool()).count()).isEqualTo(1);
    }

    /**
     * {@code claude --continue} after a {@code /compact}: the block the compaction's
     * SessionStart gave is in the transcript Claude Code restores, so the resume does not
     * empty the context; a compaction or a clear does.
     */
    @Test
    void aResumeKeepsWhatTheSessionWasShownACompactionDoesNot() throws Exception {
        CodeMemoryHome home = new CodeMemoryHome(tmp).ensureCreated();
        Spool spool = Spool.forHome(home);
        spool.append(sessionStart("s-1", "compact"));
        InjectionRecorder.record(home, injection("s-1", "SessionStart", "session_start", "mem:aaaaaa"));
        spool.append(sessionStart("s-1", "resume"));

        // what the database knew came before the compaction
        assertThat(ContinuityShown.citations(home, "s-1", Set.of("mem:bbbbbb"))).containsExactly("mem:aaaaaa");

        spool.append(sessionStart("s-1", "clear"));
        assertThat(ContinuityShown.citations(home, "s-1", Set.of("mem:bbbbbb"))).isEmpty();
    }

    @Test
    void anEmptyHomeHasShownNothing() throws Exception {
        assertThat(ContinuityShown.citations(new CodeMemoryHome(tmp).ensureCreated(), "s-1", Set.of())).isEmpty();
    }

    private static String sessionStart(String session) {
        return sessionStart(session, "startup");
    }

    private static String sessionStart(String session, String source) {
        return "{\"spool\":1,\"received_at\":\"2026-03-03T09:00:00Z\",\"event\":{\"session_id\":\"" + session
                + "\",\"hook_event_name\":\"SessionStart\",\"source\":\"" + source + "\"}}";
    }

    private static Injection injection(String session, String hook, String band, String... citations) {
        List<Injection.Item> items = new java.util.ArrayList<>();
        for (String citation : citations) {
            items.add(new Injection.Item(citation, "ent_" + citation.substring(4), items.size() + 1, 1.0));
        }
        return new Injection(session, "ev_1", hook, Instant.now(), band, 700, items);
    }

}

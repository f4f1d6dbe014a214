package dev.codememory.writers.injection;

import dev.codememory.capture.spool.Spool;
import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.config.injection.Injection;
import dev.codememory.config.injection.InjectionLine;
import java.io.IOException;

/**
 * Records what the hook injected into Claude Code's context. The hook never opens DuckDB
 * (one process at a time), so the record is one spool line ({@link InjectionLine}),
 * appended under the spool lock and fsync'd like a hook event; the ingest step moves it
 * into {@code injections} and {@code injection_items}.
 *
 * <p>
 * JDK only: this runs in the hook process.
 */
public final class InjectionRecorder {

    private InjectionRecorder() {
    }

    public static void record(CodeMemoryHome home, Injection injection) throws IOException {
        Spool.forHome(home).append(InjectionLine.write(injection));
    }

}

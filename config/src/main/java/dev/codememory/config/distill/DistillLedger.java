package dev.codememory.config.distill;

import java.time.LocalDate;
import java.util.Optional;

/**
 * Where the distiller records what it asked and what came back, before any memory is
 * stored from it: a session recorded as answered is never sent again, and the daily
 * budget is read from the calls recorded.
 */
public interface DistillLedger {

    /** What is recorded of the session under this distiller version. */
    Optional<StoredAnswer> answer(String sessionId, String version);

    /** Tokens the calls of this day (UTC) cost. */
    long tokensUsed(LocalDate day);

    /**
     * Records the call (when one was made; null when none was) and the session's answer,
     * in one transaction.
     */
    void record(DistillCall call, String sessionId, String version, StoredAnswer answer, String lastError);

}

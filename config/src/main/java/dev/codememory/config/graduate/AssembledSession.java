package dev.codememory.config.graduate;

import java.util.List;
import java.util.Objects;

/**
 * A session's events paired up: the session, its turns and its tool observations, in
 * order.
 */
public record AssembledSession(SessionInfo session, List<Turn> turns, List<Observation> observations) {

    public AssembledSession {
        Objects.requireNonNull(session, "session");
        turns = List.copyOf(turns);
        observations = List.copyOf(observations);
    }
}

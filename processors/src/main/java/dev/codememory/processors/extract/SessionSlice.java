package dev.codememory.processors.extract;

import dev.codememory.config.graduate.Observation;
import dev.codememory.config.graduate.Turn;
import java.util.List;
import java.util.Objects;

/**
 * What an extractor reads at once: turns and tool observations of one session, all of one
 * project.
 *
 * @param turns prompts with their replies, in any order
 * @param observations tool calls, in any order
 */
public record SessionSlice(String sessionId, String project, List<Turn> turns, List<Observation> observations) {

    public SessionSlice {
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(project, "project");
        turns = List.copyOf(turns);
        observations = List.copyOf(observations);
        for (Turn turn : turns) {
            if (!turn.sessionId().equals(sessionId)) {
                throw new IllegalArgumentException(
                        "turn " + turn.turnId() + " belongs to session " + turn.sessionId() + ", not " + sessionId);
            }
        }
        for (Observation observation : observations) {
            if (!observation.sessionId().equals(sessionId)) {
                throw new IllegalArgumentException("observation " + observation.observationId() + " belongs to session "
                        + observation.sessionId() + ", not " + sessionId);
            }
        }
    }
}

package dev.codememory.processors.extract;

import dev.codememory.config.graduate.AssembledSession;
import dev.codememory.config.graduate.Candidate;
import dev.codememory.config.graduate.ExtractedSession;
import dev.codememory.config.graduate.Turn;
import java.util.ArrayList;
import java.util.List;
import org.springframework.batch.infrastructure.item.ItemProcessor;

/**
 * L1: runs the extractor over an assembled session. A session's last prompt, still
 * waiting for its reply while the session is open, is held back: it is extracted once the
 * reply arrives (its Stop event makes the session pending again), so no half exchange is
 * ever stored. (Session summaries are composed later, from the verified memories, by the
 * summary stage.)
 */
public class CandidateExtractionProcessor implements ItemProcessor<AssembledSession, ExtractedSession> {

    private final Extractor extractor;

    public CandidateExtractionProcessor(Extractor extractor) {
        this.extractor = extractor;
    }

    @Override
    public ExtractedSession process(AssembledSession assembled) {
        List<Turn> turns = new ArrayList<>(assembled.turns());
        boolean open = assembled.session().endedAt() == null;
        if (open && !turns.isEmpty() && turns.get(turns.size() - 1).replyText() == null) {
            turns.remove(turns.size() - 1);
        }
        SessionSlice slice = new SessionSlice(assembled.session().sessionId(), assembled.session().project(), turns,
                assembled.observations());
        List<Candidate> candidates = new ArrayList<>(extractor.extract(slice));
        return new ExtractedSession(assembled.session().sessionId(), assembled.session().lastSeq(), candidates);
    }

}

package dev.codememory.retrieval.context;

import dev.codememory.capture.spool.Spool;
import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.config.injection.InjectionLine;
import dev.codememory.config.json.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Which continuity blocks a session's context already holds, so that a prompt asking
 * "where were we?" right after SessionStart does not get the same block a second time in
 * one request. The injections are recorded twice over: in the database once ingested
 * ({@code injections}, read by the caller), and as spool lines until then (read here, in
 * spool order: sealed files, then the current one). A session's SessionStart event line
 * in the spool starts its context afresh ({@code /compact} empties it): what was shown
 * before it no longer counts, whether it was read from the database or from earlier lines
 * — except a {@code resume}: Claude Code gives a resumed session its transcript back, the
 * context hooks added included.
 */
final class ContinuityShown {

    private static final Set<String> BANDS = Set.of("session_start", "continuity");

    private ContinuityShown() {
    }

    /**
     * The citations of continuity blocks shown in the session: those the database knows
     * ({@code fromDatabase}), then what the spool adds or resets.
     */
    static Set<String> citations(CodeMemoryHome home, String sessionId, Set<String> fromDatabase) throws IOException {
        Set<String> shown = new LinkedHashSet<>(fromDatabase);
        Spool spool = Spool.forHome(home);
        List<Path> files = new ArrayList<>(spool.sealedFiles());
        files.add(spool.currentFile());
        String quotedSession = Json.write(sessionId);
        for (Path file : files) {
            try (Stream<String> lines = Files.lines(file, StandardCharsets.UTF_8)) {
                lines.filter(line -> line.contains(quotedSession)).forEach(line -> read(line, sessionId, shown));
            }
            catch (NoSuchFileException e) {
                // sealed and ingested meanwhile, or nothing spooled yet
            }
            catch (UncheckedIOException e) {
                // a line that is not UTF-8 (a rejected hook input): no injection of ours
            }
        }
        return shown;
    }

    private static void read(String line, String sessionId, Set<String> shown) {
        Object parsed;
        try {
            parsed = Json.parse(line);
        }
        catch (RuntimeException e) {
            return; // a line being appended, or bad input: not ours to judge here
        }
        if (!(parsed instanceof Map<?, ?> envelope)) {
            return;
        }
        if (InjectionLine.RECORD.equals(envelope.get(InjectionLine.RECORD_KEY))) {
            if (envelope.get(InjectionLine.RECORD) instanceof Map<?, ?> body && sessionId.equals(body.get("session_id"))
                    && BANDS.contains(body.get("band")) && body.get("items") instanceof List<?> items) {
                for (Object item : items) {
                    if (item instanceof Map<?, ?> i && i.get("citation") instanceof String citation) {
                        shown.add(citation);
                    }
                }
            }
        }
        else if (envelope.get("event") instanceof Map<?, ?> event && sessionId.equals(event.get("session_id"))
                && "SessionStart".equals(event.get("hook_event_name")) && !"resume".equals(event.get("source"))) {
            shown.clear();
        }
    }

}

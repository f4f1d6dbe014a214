package dev.codememory.processors.facts;

import dev.codememory.capture.guard.ContextGate;
import dev.codememory.config.facts.ProjectActivity.Edit;
import dev.codememory.config.facts.ProjectActivity.Run;
import dev.codememory.config.facts.ProjectActivity;
import dev.codememory.config.graduate.Candidate;
import dev.codememory.config.graduate.CandidateKind;
import dev.codememory.config.graduate.Quote;
import dev.codememory.config.graduate.SourceText;
import dev.codememory.config.project.ProjectResolver;
import dev.codememory.config.text.TextCuts;
import dev.codememory.processors.extract.CandidateIds;
import dev.codememory.processors.shell.CommandKey;
import dev.codememory.processors.shell.ErrorLines;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Facts about a project read off how its sessions behaved, rather than off what anyone
 * said: the commands that build, test and run it, and the files that matter most. Pure
 * and deterministic; the candidates it makes are FACTs like any other, each resting on
 * quotes of the tool calls it counts, and go through validation and alignment.
 *
 * <h2>Commands</h2> Every Bash call that went through is compared by
 * {@link CommandKey#normalize} and given a role when its first command (after
 * {@code cd …&&}) is a build, test or run command of a common tool ({@link #TEST},
 * {@link #BUILD}, {@link #RUN}; test is checked first, so {@code mvn verify} is a test
 * command). Per role, the command that went through most often — at least
 * {@value #MIN_RUNS} times — is the fact (ties: the one run last):
 * {@code Test command: `mix
 * test`}, with the number of runs and sessions in its body and the command quoted from
 * its last two runs.
 *
 * <h2>Files that matter</h2> Files edited in at least {@value #MIN_SESSIONS} sessions,
 * most sessions first (then most edits, then the latest), at most {@value #MAX_FILES}:
 * {@code Files edited most: a, b, c} (paths relative to the project), each quoted from
 * its latest edit.
 *
 * <p>
 * A fact belongs to the session of its latest quoted call. When the command of a role or
 * the set of files changes, the new fact has a new title; the merge stage lets it
 * supersede the older fact of the same {@link #ROLES role}, so exactly one of each stays
 * active.
 */
public final class ProjectFacts {

    public static final String NAME = "facts-v1";
    static final int MIN_RUNS = 2;
    static final int MIN_SESSIONS = 2;
    static final int MAX_FILES = 5;

    public static final String TEST_ROLE = "Test command: ";

    public static final String BUILD_ROLE = "Build command: ";

    public static final String RUN_ROLE = "Run command: ";

    public static final String FILES_ROLE = "Files edited most: ";

    /**
     * The title prefixes of these facts: one fact per prefix and project stays active.
     */
    public static final List<String> ROLES = List.of(TEST_ROLE, BUILD_ROLE, RUN_ROLE, FILES_ROLE);

    static final Pattern TEST = Pattern.compile("^(?:\\S*=\\S*\\s+)*(?:(?:\\./)?mvnw?\\s.*\\b(?:test|verify)\\b"
            + "|(?:\\./)?gradlew?\\s.*\\b(?:test|check)\\b|(?:npm|pnpm|yarn|bun)\\s+(?:run\\s+)?test\\b"
            + "|npx\\s+(?:jest|vitest|playwright\\s+test)\\b|(?:python3?\\s+-m\\s+)?pytest\\b|go\\s+test\\b"
            + "|cargo\\s+(?:test|nextest)\\b|mix\\s+test\\b|(?:bundle\\s+exec\\s+)?(?:rspec|rake\\s+test)\\b"
            + "|dotnet\\s+test\\b|make\\s+(?:test|check)\\b|ctest\\b|tox\\b|phpunit\\b|(?:vendor/bin/)?pest\\b)");
    static final Pattern BUILD = Pattern
        .compile("^(?:\\S*=\\S*\\s+)*(?:(?:\\./)?mvnw?\\s.*\\b(?:package|install|compile)\\b"
                + "|(?:\\./)?gradlew?\\s.*\\b(?:build|assemble)\\b|(?:npm|pnpm|yarn|bun)\\s+(?:run\\s+)?build\\b"
                + "|cargo\\s+build\\b|go\\s+build\\b|mix\\s+compile\\b|dotnet\\s+build\\b|make(?:\\s|$)|cmake\\s+--build\\b"
                + "|tsc\\b|swift\\s+build\\b|xcodebuild\\b)");
    static final Pattern RUN = Pattern
        .compile("^(?:\\S*=\\S*\\s+)*(?:(?:npm|pnpm|yarn|bun)\\s+(?:run\\s+)?(?:start|dev|serve)\\b"
                + "|cargo\\s+run\\b|go\\s+run\\b|mix\\s+(?:phx\\.server|run)\\b|iex\\s+-S\\s+mix\\b|flask\\s+run\\b"
                + "|(?:bin/)?rails\\s+s(?:erver)?\\b|docker[ -]compose\\s+up\\b|docker\\s+compose\\s+up\\b"
                + "|(?:\\./)?gradlew?\\s+bootRun\\b|(?:\\./)?mvnw?\\s+spring-boot:run\\b|uvicorn\\b|dotnet\\s+run\\b"
                + "|java\\s+-jar\\b)");

    private static final Pattern CD_PREFIX = Pattern.compile("^(?:cd\\s+\\S+\\s*(?:&&|;)\\s*)+");

    /** The facts the activity shows; empty when it shows none. */
    public List<Candidate> facts(ProjectActivity activity) {
        List<Candidate> out = new ArrayList<>();
        for (String role : List.of(TEST_ROLE, BUILD_ROLE, RUN_ROLE)) {
            Candidate command = command(activity, role);
            if (command != null) {
                out.add(command);
            }
        }
        Candidate files = files(activity);
        if (files != null) {
            out.add(files);
        }
        return out;
    }

    /** The role of a command, or null: test, build or run. */
    static String role(String normalized) {
        String first = CD_PREFIX.matcher(normalized).replaceFirst("");
        if (TEST.matcher(first).find()) {
            return TEST_ROLE;
        }
        if (BUILD.matcher(first).find()) {
            return BUILD_ROLE;
        }
        return RUN.matcher(first).find() ? RUN_ROLE : null;
    }

    private Candidate command(ProjectActivity activity, String role) {
        Map<String, List<Run>> byCommand = new LinkedHashMap<>();
        for (Run run : activity.runs()) {
            if (ErrorLines.refusal(run.outputHead())) {
                continue;
            }
            String key = CommandKey.normalize(run.command());
            if (!key.isEmpty() && role.equals(role(key))) {
                byCommand.computeIfAbsent(key, k -> new ArrayList<>()).add(run);
            }
        }
        Map.Entry<String, List<Run>> best = byCommand.entrySet()
            .stream()
            .filter(e -> e.getValue().size() >= MIN_RUNS)
            .max(Comparator.<Map.Entry<String, List<Run>>>comparingInt(e -> e.getValue().size())
                .thenComparing(e -> last(e.getValue()).ts())
                .thenComparing(Map.Entry::getKey))
            .orElse(null);
        if (best == null) {
            return null;
        }
        List<Run> runs = best.getValue();
        List<Quote> quotes = new ArrayList<>();
        for (Run run : runs.subList(Math.max(0, runs.size() - 2), runs.size())) {
            String escaped = TextCuts.jsonEscape(run.command());
            String quote = escaped.length() <= TextCuts.EXCERPT_MAX ? escaped.strip() : TextCuts.excerpt(escaped, true);
            if (quote != null && !quote.isBlank()) {
                quotes.add(new Quote(run.observationId(), SourceText.TOOL_INPUT, quote));
            }
        }
        if (quotes.isEmpty()) {
            return null;
        }
        long sessions = runs.stream().map(Run::sessionId).distinct().count();
        Run last = last(runs);
        String what = role.equals(TEST_ROLE) ? "The tests run"
                : role.equals(BUILD_ROLE) ? "The project builds" : "The project runs";
        String title = role + "`" + ContextGate.shorten(best.getKey(), 150) + "`";
        String body = what + " with `" + best.getKey() + "` (" + runs.size() + " successful runs in " + sessions
                + (sessions == 1 ? " session" : " sessions") + ", the last on " + last.ts().toLocalDate() + ").";
        return candidate(activity, last.sessionId(), last.ts(), title, body, quotes);
    }

    private Candidate files(ProjectActivity activity) {
        Map<String, List<Edit>> byFile = new LinkedHashMap<>();
        for (Edit edit : activity.edits()) {
            byFile.computeIfAbsent(edit.file(), f -> new ArrayList<>()).add(edit);
        }
        List<Map.Entry<String, List<Edit>>> ranked = byFile.entrySet()
            .stream()
            .filter(e -> sessions(e.getValue()) >= MIN_SESSIONS)
            .sorted(Comparator.<Map.Entry<String, List<Edit>>>comparingLong(e -> -sessions(e.getValue()))
                .thenComparingInt(e -> -e.getValue().size())
                .thenComparing(e -> last(e.getValue()).ts(), Comparator.reverseOrder())
                .thenComparing(Map.Entry::getKey))
            .limit(MAX_FILES)
            .toList();
        if (ranked.isEmpty()) {
            return null;
        }
        List<String> names = new ArrayList<>();
        List<Quote> quotes = new ArrayList<>();
        StringBuilder body = new StringBuilder("The files this project's sessions changed most:");
        Edit latest = null;
        for (Map.Entry<String, List<Edit>> e : ranked) {
            String name = ProjectResolver.relative(e.getKey(), activity.project());
            Edit last = last(e.getValue());
            names.add(name);
            quotes.add(new Quote(last.observationId(), SourceText.TOOL_INPUT, TextCuts.jsonEscape(e.getKey())));
            body.append("\n- ")
                .append(name)
                .append(" — ")
                .append(e.getValue().size())
                .append(" edits in ")
                .append(sessions(e.getValue()))
                .append(" sessions");
            if (latest == null || last.ts().isAfter(latest.ts())) {
                latest = last;
            }
        }
        String title = ContextGate.shorten(FILES_ROLE + String.join(", ", names), 200);
        return candidate(activity, latest.sessionId(), latest.ts(), title, body.toString(), quotes);
    }

    private static Candidate candidate(ProjectActivity activity, String sessionId, LocalDateTime ts, String title,
            String body, List<Quote> quotes) {
        return new Candidate(CandidateIds.of(CandidateKind.FACT, sessionId, quotes, body), CandidateKind.FACT,
                sessionId, activity.project(), ts, title, body, null, quotes, NAME);
    }

    private static long sessions(List<Edit> edits) {
        return edits.stream().map(Edit::sessionId).distinct().count();
    }

    private static <T> T last(List<T> items) {
        return items.get(items.size() - 1);
    }

}

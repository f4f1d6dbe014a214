package dev.codememory.processors.extract;

import dev.codememory.config.graduate.CandidateKind;
import dev.codememory.config.graduate.Observation;
import dev.codememory.config.graduate.Quote;
import dev.codememory.config.graduate.SourceText;
import dev.codememory.config.project.ProjectResolver;
import dev.codememory.config.text.TextCuts;
import dev.codememory.processors.shell.ErrorLines;
import dev.codememory.processors.shell.GhOutput;
import dev.codememory.processors.shell.GitOutput;
import dev.codememory.processors.shell.RecordedWork.Kind;
import dev.codememory.processors.shell.RecordedWork;
import dev.codememory.processors.shell.ShellWork;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Work done, as the session recorded it: every {@code git commit}, {@code gh pr create}
 * and {@code gh issue create} a Bash call ran ({@link ShellWork}) and that went through
 * becomes a WORK candidate. A commit went through when git printed its summary line
 * ({@code [main 1a2b3c4] Subject}, {@link GitOutput#committedSha}); a pull request or
 * issue when the call did not fail and was not refused. A commit that failed stays an
 * observation only.
 *
 * <p>
 * Title: the commit subject (or the PR / issue title). Body: what it is and its reference
 * ({@code Commit 1a2b3c4}, {@code Pull request https://…/pull/12}), the subject, the
 * message body when there is one, and for a commit the files it changed: the paths given
 * to {@code git add} and {@code git commit}, the files git reports created, and the files
 * the session edited since its previous commit (relative to the project), at most
 * {@value #MAX_FILES}. Quotes: the subject as written in the command (as it appears in
 * the input text), and git's summary line or the PR / issue URL from the output.
 */
final class WorkDone {

    static final int MAX_FILES = 20;
    static final Set<String> EDIT_TOOLS = Set.of("Edit", "MultiEdit", "Write", "NotebookEdit");

    private WorkDone() {
    }

    /** Reads the work among {@code observations} (in time order) into {@code sink}. */
    static void extract(List<Observation> observations, CandidateSink sink) {
        Set<String> editedSinceCommit = new LinkedHashSet<>();
        for (Observation o : observations) {
            if (EDIT_TOOLS.contains(o.tool()) && !o.failed()) {
                o.files().forEach(f -> editedSinceCommit.add(ProjectResolver.relative(f, o.project())));
                continue;
            }
            if (!"Bash".equals(o.tool()) || o.command() == null || o.inputText() == null
                    || ErrorLines.refusal(o.outputText())) {
                continue;
            }
            for (RecordedWork work : ShellWork.parse(o.command())) {
                if (work.kind() == Kind.COMMIT) {
                    String sha = GitOutput.committedSha(o.outputText());
                    if (sha != null) {
                        commit(o, work, sha, editedSinceCommit, sink);
                        editedSinceCommit.clear();
                    }
                }
                else if (!o.failed()) {
                    created(o, work, sink);
                }
            }
        }
    }

    private static void commit(Observation o, RecordedWork work, String sha, Set<String> edited, CandidateSink sink) {
        Quote subject = subjectQuote(o, work);
        if (subject == null) {
            return;
        }
        List<Quote> quotes = new ArrayList<>(List.of(subject));
        int at = o.outputText().indexOf(sha + "]");
        int from = at < 0 ? -1 : o.outputText().lastIndexOf('[', at);
        String summaryLine = from < 0 ? null : TextCuts.line(o.outputText(), from, true);
        if (summaryLine != null) {
            quotes.add(new Quote(o.observationId(), SourceText.TOOL_RESPONSE, summaryLine));
        }
        Set<String> files = new LinkedHashSet<>(work.paths());
        files.addAll(GitOutput.createdFiles(o.outputText()));
        files.addAll(edited);
        StringBuilder body = new StringBuilder("Commit ").append(sha).append(": ").append(work.subject());
        if (!work.body().isEmpty()) {
            body.append("\n\n").append(work.body());
        }
        if (!files.isEmpty()) {
            body.append("\n\nFiles: ").append(String.join(", ", files.stream().limit(MAX_FILES).toList()));
            if (files.size() > MAX_FILES) {
                body.append(" (+").append(files.size() - MAX_FILES).append(" more)");
            }
        }
        sink.add(CandidateKind.WORK, o.ts(), work.subject(), body.toString(), null, quotes);
    }

    private static void created(Observation o, RecordedWork work, CandidateSink sink) {
        Quote subject = subjectQuote(o, work);
        if (subject == null) {
            return;
        }
        List<Quote> quotes = new ArrayList<>(List.of(subject));
        String url = GhOutput.url(o.outputText());
        if (url != null && o.outputText().contains(url)) {
            quotes.add(new Quote(o.observationId(), SourceText.TOOL_RESPONSE, url));
        }
        String what = work.kind() == Kind.PULL_REQUEST ? "Pull request" : "Issue";
        StringBuilder body = new StringBuilder(what).append(url == null ? "" : " " + url)
            .append(": ")
            .append(work.subject());
        if (!work.body().isEmpty()) {
            body.append("\n\n").append(work.body());
        }
        sink.add(CandidateKind.WORK, o.ts(), work.subject(), body.toString(), null, quotes);
    }

    /**
     * The subject as written in the command, as it appears in the input text (raw, else
     * JSON-escaped).
     */
    private static Quote subjectQuote(Observation o, RecordedWork work) {
        String raw = o.command().substring(work.subjectStart(), work.subjectEnd()).strip();
        for (String form : new String[] { raw, TextCuts.jsonEscape(raw) }) {
            if (!form.isEmpty() && o.inputText().contains(form)) {
                String quote = form.length() <= TextCuts.EXCERPT_MAX ? form : TextCuts.excerpt(form, true);
                return quote == null ? null : new Quote(o.observationId(), SourceText.TOOL_INPUT, quote);
            }
        }
        return null;
    }

}

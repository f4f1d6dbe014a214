package dev.codememory.jobs.viewer;

import static dev.codememory.jobs.viewer.Html.esc;
import static dev.codememory.jobs.viewer.Html.time;

import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.jobs.forget.ForgetService;
import dev.codememory.jobs.serve.ResidentQueries;
import dev.codememory.readers.distill.DistillQueries;
import dev.codememory.readers.report.ReportQueries;
import dev.codememory.readers.viewer.ViewerQueries;
import dev.codememory.retrieval.context.PromptContextService;
import dev.codememory.retrieval.context.SessionStartContextService;
import dev.codememory.writers.forget.Forgetting;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.job.JobInstance;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.batch.core.step.StepExecution;

/**
 * The viewer's pages about the store rather than one memory: the task board, the context
 * preview, health, and forget (through the same service as the {@code forget} command, a
 * preview first).
 */
final class ViewerAdminPages {

    static final int CHART_DAYS = 30;

    /** How many days of distill usage health lists (those with requests). */
    static final int DISTILL_DAYS = 7;

    static final int RUNS_SHOWN = 8;

    private static final List<String[]> COLUMNS = List.of(new String[] { "pending", "Open" },
            new String[] { "in_progress", "In progress" }, new String[] { "blocked", "Blocked" },
            new String[] { "done", "Done" });

    private final ViewerPages pages;

    private final ResidentQueries resident;

    private final ForgetService forgetting;

    private final CodeMemoryHome home;

    private final JobRepository jobs;

    ViewerAdminPages(ViewerPages pages, ResidentQueries resident, ForgetService forgetting, CodeMemoryHome home,
            JobRepository jobs) {
        this.pages = pages;
        this.resident = resident;
        this.forgetting = forgetting;
        this.home = home;
        this.jobs = jobs;
    }

    String tasks(String project) throws SQLException {
        try (Connection c = pages.session().connection()) {
            List<ViewerQueries.TaskCard> cards = ViewerQueries.tasks(c, project);
            StringBuilder s = new StringBuilder(pages.projectChooser(c, "/tasks", project));
            s.append("<div class=\"board\">");
            for (String[] column : COLUMNS) {
                List<ViewerQueries.TaskCard> in = cards.stream()
                    .filter(t -> column[0].equals(t.status())
                            || "done".equals(column[0]) && "cancelled".equals(t.status()))
                    .toList();
                s.append("<section class=\"column\" id=\"col-")
                    .append(column[0])
                    .append("\"><h2>")
                    .append(column[1])
                    .append(" <span class=\"meta\">")
                    .append(in.size())
                    .append("</span></h2>");
                for (ViewerQueries.TaskCard t : in) {
                    s.append("<article class=\"card\"><h3>")
                        .append(esc(t.title()))
                        .append("</h3><p class=\"meta\">")
                        .append(esc(t.status()))
                        .append(t.priority().isBlank() ? "" : " · " + esc(t.priority()))
                        .append(" · <code>")
                        .append(esc(t.taskId()))
                        .append("</code></p>");
                    if (!t.blockers().isEmpty()) {
                        s.append("<p>blocked by:</p><ul>");
                        t.blockers().forEach(b -> s.append("<li>").append(esc(b)).append("</li>"));
                        s.append("</ul>");
                    }
                    if (!t.history().isEmpty()) {
                        s.append("<details><summary>history (").append(t.history().size()).append(")</summary><ul>");
                        t.history().forEach(h -> s.append("<li>").append(esc(h)).append("</li>"));
                        s.append("</ul></details>");
                    }
                    s.append("</article>");
                }
                s.append("</section>");
            }
            return s.append("</div>").toString();
        }
    }

    String context(String project, String prompt) throws Exception {
        StringBuilder s = new StringBuilder();
        String chosen;
        try (Connection c = pages.session().connection()) {
            List<String> projects = ViewerQueries.projects(c);
            chosen = project != null ? project : projects.isEmpty() ? null : projects.get(0);
            s.append("<form method=\"get\" action=\"/context\"><label>Project <select name=\"project\">");
            for (String p : projects) {
                s.append("<option")
                    .append(p.equals(chosen) ? " selected" : "")
                    .append('>')
                    .append(esc(p))
                    .append("</option>");
            }
            s.append("</select></label><br><label>Prompt<br><textarea name=\"prompt\" rows=\"3\" cols=\"80\">")
                .append(esc(prompt == null ? "" : prompt))
                .append("</textarea></label><br><button>Preview</button></form>");
            if (chosen == null) {
                return s.append("<p class=\"meta\">nothing captured yet</p>").toString();
            }
            String start = SessionStartContextService.contextFor(c, chosen, null).context().text();
            s.append("<h2>At the next SessionStart</h2>").append(shown(start));
        }
        if (prompt != null && !prompt.isBlank()) {
            PromptContextService.Outcome outcome = resident.hookServices().prompts().preview(chosen, prompt);
            s.append("<h2>For this prompt</h2><p class=\"meta\">band ")
                .append(esc(outcome.context().band().name().toLowerCase(Locale.ROOT)))
                .append(" · ")
                .append(outcome.hits().size())
                .append(" hits · ")
                .append(outcome.semantic() ? "words and meaning" : "words only")
                .append("</p>")
                .append(shown(outcome.context().text()));
        }
        return s.toString();
    }

    private static String shown(String text) {
        return text == null || text.isBlank() ? "<p class=\"meta\">nothing would be injected</p>"
                : "<pre class=\"context\">" + esc(text) + "</pre>";
    }

    /** The health figures, also the body of {@code /api/health}. */
    Map<String, Object> healthFigures() throws SQLException, IOException {
        Map<String, Object> f = new LinkedHashMap<>();
        try (Connection c = pages.session().connection()) {
            f.put("counts", ReportQueries.counts(c));
            f.put("lag", ReportQueries.lag(c));
            f.put("perDay", ViewerQueries.eventsPerDay(c, CHART_DAYS));
            f.put("memoriesPerDay", ViewerQueries.memoriesPerDay(c, CHART_DAYS));
            f.put("embedding", ViewerQueries.embeddingProgress(c));
            f.put("rejects", ViewerQueries.rejects(c, 20));
            f.put("distillUsage", DistillQueries.usagePerDay(c, DISTILL_DAYS));
            f.put("distillSessions", DistillQueries.outcomes(c));
            f.put("distillClaims", DistillQueries.claims(c));
        }
        f.put("spool", ForgetService.spoolLines(home));
        return f;
    }

    /**
     * Health as a reader asks it: is capture working, what became of it, is anything
     * waiting or failing; in sentences, with a chart of the last {@value #CHART_DAYS}
     * days, then the job runs and what failed, folded away.
     */
    @SuppressWarnings("unchecked")
    String health() throws SQLException, IOException {
        Map<String, Object> f = healthFigures();
        ReportQueries.Counts counts = (ReportQueries.Counts) f.get("counts");
        ReportQueries.Lag lag = (ReportQueries.Lag) f.get("lag");
        Map<LocalDate, Long> events = (Map<LocalDate, Long>) f.get("perDay");
        Map<LocalDate, Long> memories = (Map<LocalDate, Long>) f.get("memoriesPerDay");
        Map<String, Long> embedding = (Map<String, Long>) f.get("embedding");
        List<ViewerQueries.Reject> rejects = (List<ViewerQueries.Reject>) f.get("rejects");
        List<String> failures = captureFailures();
        List<JobExecution> runs = jobRuns();
        StringBuilder s = new StringBuilder("<div id=\"summary\">");
        for (String sentence : sentences(counts, lag, events, embedding, ((Number) f.get("spool")).longValue(),
                rejects.size() + failures.size(), runs)) {
            s.append("<p class=\"sentence\">").append(esc(sentence)).append("</p>");
        }
        s.append("</div>");
        s.append("<h2>The last ").append(CHART_DAYS).append(" days</h2>").append(chart(events, memories));
        s.append(distill((Map<LocalDate, long[]>) f.get("distillUsage"), (Map<String, Long>) f.get("distillSessions"),
                (Map<String, Long>) f.get("distillClaims")));
        s.append("<h2>Job runs</h2>").append(runsTable(runs));
        s.append("<h2>Capture failures and rejects</h2>");
        if (failures.isEmpty() && rejects.isEmpty()) {
            s.append("<p class=\"meta\">none</p>");
        }
        if (!failures.isEmpty()) {
            s.append("<details><summary>")
                .append(failures.size())
                .append(" hook failures (logs/hook.log)</summary><pre class=\"log\">");
            failures.forEach(l -> s.append(esc(l)).append('\n'));
            s.append("</pre></details>");
        }
        if (!rejects.isEmpty()) {
            s.append("<details><summary>")
                .append(rejects.size())
                .append(" rejects</summary><table><thead><tr><th>when</th><th>stage</th><th>what</th>"
                        + "<th>reason</th></tr></thead><tbody>");
            for (ViewerQueries.Reject r : rejects) {
                s.append("<tr><td>")
                    .append(time(r.at()))
                    .append("</td><td>")
                    .append(esc(r.stage()))
                    .append("</td><td>")
                    .append(esc(r.subject()))
                    .append("</td><td>")
                    .append(esc(r.reason()))
                    .append("</td></tr>");
            }
            s.append("</tbody></table></details>");
        }
        return s.toString();
    }

    /**
     * The opt-in distill step, once it has run: what it asked of the developer's own
     * model and what came of it, in a sentence, then its requests and tokens on each of
     * the last {@value #DISTILL_DAYS} days it was used, newest first. Nothing while it
     * never ran.
     */
    static String distill(Map<LocalDate, long[]> usage, Map<String, Long> sessions, Map<String, Long> claims) {
        if (sessions.isEmpty() && usage.isEmpty()) {
            return "";
        }
        long rejected = claims.entrySet()
            .stream()
            .filter(e -> !"proven".equals(e.getKey()))
            .mapToLong(Map.Entry::getValue)
            .sum();
        StringBuilder s = new StringBuilder("<h2>What your model was asked (distill)</h2><p class=\"sentence\">")
            .append(esc(SessionPages.counted(sessions.getOrDefault("answered", 0L), "session") + " answered, "
                    + SessionPages.counted(claims.getOrDefault("proven", 0L), "claim") + " proven and kept, " + rejected
                    + " rejected unproven"
                    + (sessions.getOrDefault("failed", 0L) > 0
                            ? "; " + SessionPages.counted(sessions.get("failed"), "session") + " to ask again" : "")
                    + "."))
            .append("</p><table><thead><tr><th>day</th><th>requests</th><th>tokens in</th><th>tokens out</th>"
                    + "</tr></thead><tbody>");
        usage.forEach((day, n) -> s.append("<tr><td>")
            .append(day)
            .append("</td><td>")
            .append(n[0])
            .append(String.format(Locale.ROOT, "</td><td>%,d</td><td>%,d</td></tr>", n[1], n[2])));
        return s.append("</tbody></table>").toString();
    }

    /**
     * Two to four plain sentences: what was captured, what became of it, what waits, what
     * failed.
     */
    static List<String> sentences(ReportQueries.Counts counts, ReportQueries.Lag lag, Map<LocalDate, Long> events,
            Map<String, Long> embedding, long spool, int problems, List<JobExecution> runs) {
        List<String> out = new ArrayList<>();
        long recent = events.values().stream().mapToLong(Long::longValue).sum();
        long days = events.values().stream().filter(n -> n > 0).count();
        out.add(counts.events() == 0
                ? "Nothing captured yet: once the hooks are installed, every prompt, reply "
                        + "and tool call of a Claude Code session is recorded here."
                : recent == 0 ? "Nothing captured in the last " + CHART_DAYS + " days ("
                        + SessionPages.counted(counts.events(), "event") + " from "
                        + SessionPages.counted(counts.sessions(), "session")
                        + " before that): if you used Claude Code meanwhile, check that the hooks are installed."
                        : "Capture works: " + SessionPages.counted(recent, "event") + " on "
                                + SessionPages.counted(days, "day") + " of the last " + CHART_DAYS + " ("
                                + SessionPages.counted(counts.events(), "event") + " from "
                                + SessionPages.counted(counts.sessions(), "session") + " in all).");
        long current = state(counts.memoriesByState(), "active");
        long replaced = state(counts.memoriesByState(), "superseded");
        if (current + replaced > 0) {
            StringBuilder m = new StringBuilder("Claude keeps " + SessionPages.counted(current, "memory", "memories")
                    + (replaced == 0 ? "" : " (and " + replaced + " replaced by newer ones)"));
            if (lag.medianSeconds() != null) {
                m.append("; half were ready ")
                    .append(seconds(lag.medianSeconds()))
                    .append(" after capture, nearly all (95%) within ")
                    .append(seconds(lag.p95Seconds()));
            }
            long open = counts.tasksByStatus()
                .entrySet()
                .stream()
                .filter(e -> !"done".equals(e.getKey()) && !"cancelled".equals(e.getKey()))
                .mapToLong(Map.Entry::getValue)
                .sum();
            m.append(open == 0 ? "." : "; " + SessionPages.counted(open, "task is", "tasks are") + " open.");
            out.add(m.toString());
        }
        List<String> waiting = new ArrayList<>();
        if (lag.pendingEvents() > 0) {
            waiting.add(SessionPages.counted(lag.pendingEvents(), "event") + " for the next graduation"
                    + (lag.oldestPending() == null ? "" : " (the oldest captured " + time(lag.oldestPending()) + ")"));
        }
        if (spool > 0) {
            waiting.add(SessionPages.counted(spool, "spool line") + " for ingest");
        }
        long unembedded = embedding.getOrDefault("pending", 0L) + embedding.getOrDefault("failed", 0L);
        if (unembedded > 0) {
            waiting.add(SessionPages.counted(unembedded, "memory", "memories") + " for their vectors");
        }
        out.add(waiting.isEmpty()
                ? "Nothing is waiting: every event is graduated and every memory searchable by " + "meaning."
                : "Waiting: " + SessionPages.joined(waiting) + ".");
        List<String> failed = new ArrayList<>();
        Map<String, JobExecution> last = new LinkedHashMap<>();
        runs.forEach(r -> last.putIfAbsent(r.getJobInstance().getJobName(), r));
        last.values()
            .stream()
            .filter(r -> r.getStatus() == BatchStatus.FAILED)
            .forEach(r -> failed.add("the last " + r.getJobInstance().getJobName() + " run failed"));
        if (problems > 0) {
            failed.add(SessionPages.counted(problems, "capture failure or reject", "capture failures or rejects")
                    + " (below)");
        }
        out.add(failed.isEmpty() ? "No failures: the last run of each job completed and nothing was rejected."
                : "Needs a look: " + SessionPages.joined(failed) + ".");
        return out;
    }

    private static long state(Map<String, Long> byState, String status) {
        return byState.entrySet()
            .stream()
            .filter(e -> e.getKey().endsWith(status) && e.getKey().startsWith("verified"))
            .mapToLong(Map.Entry::getValue)
            .sum();
    }

    /** The newest runs of every job, newest first, from Spring Batch's own metadata. */
    private List<JobExecution> jobRuns() {
        List<JobExecution> runs = new ArrayList<>();
        for (String name : jobs.getJobNames()) {
            for (JobInstance instance : jobs.getJobInstances(name, 0, 5)) {
                runs.addAll(jobs.getJobExecutions(instance));
            }
        }
        runs.sort((a, b) -> Long.compare(b.getId(), a.getId()));
        return runs;
    }

    /**
     * One row per run (job, when, how long, outcome, what it wrote), its steps folded
     * away.
     */
    private static String runsTable(List<JobExecution> runs) {
        if (runs.isEmpty()) {
            return "<p class=\"meta\">no job has run yet</p>";
        }
        StringBuilder s = new StringBuilder("<table class=\"runs\"><thead><tr><th>job</th><th>started</th>"
                + "<th>took</th><th>outcome</th><th>steps</th></tr></thead><tbody>");
        for (JobExecution run : runs.subList(0, Math.min(RUNS_SHOWN, runs.size()))) {
            long read = run.getStepExecutions().stream().mapToLong(StepExecution::getReadCount).sum();
            long written = run.getStepExecutions().stream().mapToLong(StepExecution::getWriteCount).sum();
            s.append("<tr><td>")
                .append(esc(run.getJobInstance().getJobName()))
                .append("</td><td>")
                .append(run.getStartTime() == null ? "" : esc(Html.time(run.getStartTime())))
                .append("</td><td>")
                .append(run.getStartTime() == null || run.getEndTime() == null ? ""
                        : seconds(java.time.Duration.between(run.getStartTime(), run.getEndTime()).toMillis() / 1000.0))
                .append("</td><td")
                .append(run.getStatus() == BatchStatus.FAILED ? " class=\"bad\"" : "")
                .append(">")
                .append(esc(run.getStatus().name().toLowerCase(Locale.ROOT)))
                .append("</td><td><details><summary>")
                .append(SessionPages.counted(run.getStepExecutions().size(), "step"))
                .append(", ")
                .append(read)
                .append(" read, ")
                .append(written)
                .append(" written</summary><ul>");
            for (StepExecution step : run.getStepExecutions()) {
                s.append("<li>")
                    .append(esc(step.getStepName()))
                    .append(": ")
                    .append(esc(step.getStatus().name().toLowerCase(Locale.ROOT)))
                    .append(", ")
                    .append(step.getReadCount())
                    .append(" read, ")
                    .append(step.getWriteCount())
                    .append(" written")
                    .append(step.getFilterCount() + step.getSkipCount() == 0 ? ""
                            : ", " + step.getFilterCount() + " filtered, " + step.getSkipCount() + " skipped")
                    .append("</li>");
            }
            s.append("</ul></details></td></tr>");
        }
        return s.append("</tbody></table>").toString();
    }

    /**
     * The hook's last failures from {@code logs/hook.log} (what failed, never an event's
     * text).
     */
    private List<String> captureFailures() throws IOException {
        Path log = home.logs().resolve("hook.log");
        List<String> errors = new ArrayList<>();
        if (Files.exists(log)) {
            for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
                if (line.contains(" ERROR ")) {
                    errors.add(line);
                }
            }
        }
        return errors.subList(Math.max(0, errors.size() - 20), errors.size());
    }

    /**
     * Events captured (blue) and memories made (orange) per day, side by side, each
     * scaled to its own busiest day; every bar titled with its count.
     */
    private static String chart(Map<LocalDate, Long> events, Map<LocalDate, Long> memories) {
        long maxEvents = events.values().stream().mapToLong(Long::longValue).max().orElse(0);
        long maxMemories = memories.values().stream().mapToLong(Long::longValue).max().orElse(0);
        int width = 24;
        int height = 120;
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        StringBuilder s = new StringBuilder("<svg class=\"chart\" role=\"img\" aria-label=\"events captured and "
                + "memories made per day, last " + CHART_DAYS + " days\" viewBox=\"0 0 " + (CHART_DAYS * width) + " "
                + (height + 20) + "\" width=\"" + (CHART_DAYS * width) + "\" height=\"" + (height + 20) + "\">");
        for (int i = 0; i < CHART_DAYS; i++) {
            LocalDate day = today.minusDays(CHART_DAYS - 1 - i);
            bar(s, "events", i * width + 2, events.getOrDefault(day, 0L), maxEvents, height, day, "events captured");
            bar(s, "memories", i * width + 12, memories.getOrDefault(day, 0L), maxMemories, height, day,
                    "memories made");
            if (i % 7 == 0) {
                s.append("<text x=\"")
                    .append(i * width + 2)
                    .append("\" y=\"")
                    .append(height + 15)
                    .append("\">")
                    .append(day.toString().substring(5))
                    .append("</text>");
            }
        }
        return s.append("</svg><p class=\"legend\"><span class=\"swatch events\"></span>events captured (busiest day ")
            .append(maxEvents)
            .append(")<span class=\"swatch memories\"></span>memories made (busiest day ")
            .append(maxMemories)
            .append(")</p>")
            .toString();
    }

    private static void bar(StringBuilder s, String series, int x, long n, long max, int height, LocalDate day,
            String what) {
        int h = max == 0 ? 0 : (int) Math.round(n * (double) height / max);
        s.append("<rect class=\"")
            .append(series)
            .append("\" x=\"")
            .append(x)
            .append("\" y=\"")
            .append(height - h)
            .append("\" width=\"9\" height=\"")
            .append(h)
            .append("\"><title>")
            .append(day)
            .append(": ")
            .append(n)
            .append(' ')
            .append(what)
            .append("</title></rect>");
    }

    private static String seconds(Double s) {
        if (s == null) {
            return "n/a";
        }
        return s < 120 ? String.format(Locale.ROOT, "%.0f s", s) : s < 7200
                ? String.format(Locale.ROOT, "%.1f min", s / 60) : String.format(Locale.ROOT, "%.1f h", s / 3600);
    }

    /**
     * What to forget, from the form: exactly one of a citation, a session id, a phrase,
     * each only ever the value it is (a phrase that starts with {@code --} is a phrase).
     */
    record Target(String field, String value) {

        static Target of(Map<String, String> q) {
            for (String field : List.of("citation", "session", "match")) {
                String v = ViewerPages.blank(q.get(field));
                if (v != null) {
                    return new Target(field, v);
                }
            }
            return null;
        }

        /** The service's subject; a citation that is none is refused here. */
        ForgetService.Subject subject() {
            return switch (field) {
                case "citation" -> ForgetService.Subject.citation(value);
                case "session" -> ForgetService.Subject.of(Forgetting.session(value));
                default -> ForgetService.Subject.of(Forgetting.match(value));
            };
        }

        String hidden() {
            return "<input type=\"hidden\" name=\"" + field + "\" value=\"" + esc(value) + "\">";
        }

        String describe() {
            return switch (field) {
                case "citation" -> "memory " + value;
                case "session" -> "session " + value;
                default -> "everything that mentions \u201c" + value + "\u201d";
            };
        }

    }

    String forgetForm(Target target, String csrf) {
        StringBuilder s = new StringBuilder("<p class=\"hint\">Forgetting is the same as the <code>forget</code> "
                + "command: first a preview of what would go, then your confirmation. Nothing forgotten comes back.</p>");
        s.append("<form method=\"post\" action=\"/forget/preview\">").append(Html.csrfField(csrf));
        s.append("<label>Memory (citation) <input name=\"citation\" placeholder=\"mem:xxxxxx\" value=\"")
            .append(esc(target != null && "citation".equals(target.field()) ? target.value() : ""))
            .append("\"></label><br><label>or session <input name=\"session\" value=\"")
            .append(esc(target != null && "session".equals(target.field()) ? target.value() : ""))
            .append("\"></label><br><label>or everything that mentions <input name=\"match\" value=\"")
            .append(esc(target != null && "match".equals(target.field()) ? target.value() : ""))
            .append("\"></label><br><button id=\"preview\">Preview what would be forgotten</button></form>");
        return s.toString();
    }

    String forgetPreview(Target target, String csrf) {
        ForgetService.Subject subject = target.subject();
        ForgetService.Outcome outcome = forgetting.preview(subject);
        StringBuilder s = new StringBuilder("<h2>").append(esc(target.describe())).append("</h2>");
        s.append("<pre class=\"outcome\" id=\"counts\">");
        if (outcome.status() != ForgetService.Status.DONE) {
            return s.append(esc(problem(outcome))).append("</pre><p><a href=\"/forget\">Back</a></p>").toString();
        }
        s.append(esc(subject.label())).append(" would remove: ").append(esc(ForgetService.describe(outcome.counts())));
        if (outcome.spoolLines() > 0) {
            s.append('\n')
                .append(outcome.spoolLines())
                .append(" spool line(s) not ingested yet would be ingested first and checked too");
        }
        s.append("\ndry run: nothing was changed</pre>")
            .append("<form method=\"post\" action=\"/forget\">")
            .append(Html.csrfField(csrf))
            .append(target.hidden())
            .append("<input type=\"hidden\" name=\"confirm\" value=\"yes\">")
            .append("<button class=\"danger\" id=\"confirm\">Forget it for good</button> <a href=\"/\">Cancel</a>")
            .append("</form>");
        return s.toString();
    }

    String forget(Target target) {
        ForgetService.Subject subject = target.subject();
        ForgetService.Outcome outcome = forgetting.forget(subject);
        StringBuilder s = new StringBuilder("<h2>").append(esc(target.describe()))
            .append("</h2><pre class=\"outcome\" id=\"outcome\">");
        if (outcome.status() != ForgetService.Status.DONE) {
            s.append(esc(problem(outcome)));
        }
        else if (outcome.counts().isEmpty()) {
            s.append("nothing to forget for ").append(esc(subject.label()));
        }
        else {
            ForgetService.Vectors vectors = outcome.vectors();
            s.append("forgot ")
                .append(esc(subject.label()))
                .append(": ")
                .append(esc(ForgetService.describe(outcome.counts())))
                .append("\nvectors of ")
                .append(ForgetService.plural(vectors.memories(), "memory", "memories"))
                .append(vectors.queuedBecause() == null ? " removed"
                        : " queued for removal at the next graduate or reindex (" + esc(vectors.queuedBecause()) + ")");
        }
        return s.append("</pre><p><a href=\"/\">Timeline</a></p>").toString();
    }

    private static String problem(ForgetService.Outcome outcome) {
        return switch (outcome.status()) {
            case NO_MEMORY_YET -> "nothing to forget: no memory yet";
            case BUSY -> "busy: " + outcome.problem() + " (try again when the job is done)";
            case SPOOL_NOT_INGESTED -> outcome.problem() + "; nothing was forgotten. Details: logs/jobs.log";
            default -> String.valueOf(outcome.problem());
        };
    }

}

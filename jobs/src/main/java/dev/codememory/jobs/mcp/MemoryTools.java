package dev.codememory.jobs.mcp;

import dev.codememory.retrieval.context.PromptContextService.QueryLease;
import dev.codememory.retrieval.context.SessionLease;
import dev.codememory.retrieval.query.QueryException;
import dev.codememory.retrieval.query.QueryRequest;
import dev.codememory.retrieval.query.QueryResult;
import static dev.codememory.jobs.mcp.ToolText.budget;
import static dev.codememory.jobs.mcp.ToolText.gated;
import static dev.codememory.jobs.mcp.ToolText.oneLine;

import dev.codememory.capture.guard.ContextGate;
import dev.codememory.capture.guard.Provenance;
import dev.codememory.capture.privacy.Redactor;
import dev.codememory.capture.spool.Spool;
import dev.codememory.capture.spool.SpoolLineBuilder;
import dev.codememory.config.db.DatabaseException;
import dev.codememory.config.db.DatabaseLockedException;
import dev.codememory.jobs.invocation.Invocation;
import dev.codememory.jobs.mcp.ToolStore.Scope;
import dev.codememory.jobs.mcp.ToolText.Budgeted;
import dev.codememory.jobs.report.Stats;
import dev.codememory.jobs.search.ShownMemory;
import dev.codememory.retrieval.citation.CitationQueries;
import dev.codememory.retrieval.citation.CitedMemory;
import dev.codememory.retrieval.citation.ContextEvent;
import dev.codememory.retrieval.citation.ToolQueries;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What each MCP tool does, on an {@link Invocation}: inside {@code serve} (its warm model
 * and indexes, its database session) or in the MCP process, which opens the database
 * read-only for the one call and closes it before answering, so an MCP session never
 * holds the database between calls.
 *
 * <p>
 * Every answer is one compact text block for the model, within a token budget (about four
 * characters a token) the caller may lower, with {@code [mem:xxxxxx]} citations. What it
 * quotes follows the rules of the context Claude Code is given: the user's own words as
 * they are, everything else through the {@link ContextGate}; tool output is named and not
 * replayed, except in {@code mem-details}, which quotes evidence labelled with its tool
 * as {@code show} does. The whole answer passes the redactor again. Bad input — an empty
 * query, an unknown citation, a limit out of range, a project the store does not know, a
 * missing or locked database — is an {@link Answer} marked as an error, never an
 * exception.
 *
 * <p>
 * {@code mem-search} is {@link SearchTool}, {@code mem-save} {@link SaveTool}; the store
 * and the project a call is about come from {@link ToolStore}, the answer's text and
 * budget from {@link ToolText}.
 */
public final class MemoryTools {

    /** A tool's answer: its text, and whether it reports an error. */
    public record Answer(String text, boolean error) {

        static Answer error(String text) {
            return new Answer(text, true);
        }

        public Map<String, Object> toJson() {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("text", text);
            json.put("error", error);
            return json;
        }

        public static Answer fromJson(Map<?, ?> json) {
            return new Answer(String.valueOf(json.get("text")), Boolean.TRUE.equals(json.get("error")));
        }
    }

    private static final Redactor REDACTOR = Redactor.defaults();

    private final Invocation invocation;

    private final boolean served;

    private final ToolStore store;

    private final SearchTool searches;

    private final SaveTool saves;

    /**
     * @param invocation where the work runs
     * @param served whether that is inside {@code serve}
     */
    public MemoryTools(Invocation invocation, boolean served) {
        this(invocation, served, () -> null);
    }

    /**
     * @param invocation where the work runs
     * @param served whether that is inside {@code serve}
     * @param graduateAfterSave told of each save; how long until serve graduates it, or
     * null when serve will not for it
     */
    public MemoryTools(Invocation invocation, boolean served,
            java.util.function.Supplier<java.time.Duration> graduateAfterSave) {
        this.invocation = invocation;
        this.served = served;
        this.store = new ToolStore(invocation);
        this.searches = new SearchTool(invocation, store);
        this.saves = new SaveTool(invocation, served, graduateAfterSave);
    }

    /** Runs one tool; never throws. */
    public Answer call(String tool, Map<?, ?> arguments) {
        ToolArguments args = new ToolArguments(arguments);
        try {
            Answer answer = switch (tool) {
                case "mem-search" -> searches.search(args);
                case "mem-timeline" -> timeline(args);
                case "mem-details" -> details(args);
                case "mem-tasks" -> tasks(args);
                case "mem-save" -> saves.save(args);
                case "mem-stats" -> stats(args);
                default -> Answer.error("unknown tool " + tool + "; the tools are "
                        + String.join(", ", ToolCatalog.TOOLS.stream().map(ToolCatalog.Tool::name).toList()));
            };
            return new Answer(REDACTOR.redact(answer.text()), answer.error());
        }
        catch (ToolArguments.BadInput e) {
            return Answer.error(e.getMessage());
        }
        catch (DatabaseLockedException e) {
            return Answer.error("code-memory is busy: a job holds the database (" + e.getMessage()
                    + "); try again in a minute, or start `serve`, which answers while it graduates");
        }
        catch (DatabaseException | QueryException e) {
            return Answer.error("cannot read the memory store: " + e.getMessage());
        }
        catch (RuntimeException e) {
            return Answer.error(tool + " failed: " + e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    // ---- mem-timeline

    private Answer timeline(ToolArguments args) {
        String citation = args.text("citation");
        String query = args.text("query");
        int before = args.integer("before", 3, 0, ToolCatalog.MAX_WINDOW);
        int after = args.integer("after", 3, 0, ToolCatalog.MAX_WINDOW);
        int budget = budget(args, ToolCatalog.SEARCH_TOKENS);
        if (citation == null && query == null) {
            throw new ToolArguments.BadInput("give a citation (mem:xxxxxx) or a query");
        }
        if (citation != null && CitationQueries.code(citation).isEmpty()) {
            throw new ToolArguments.BadInput("not a citation: " + citation + " (expected mem:xxxxxx)");
        }
        Optional<Answer> missing = store.missing().map(Answer::error);
        if (missing.isPresent()) {
            return missing.get();
        }
        if (citation == null) {
            Scope scope = store.scope(args);
            try (QueryLease lease = store.queries()) {
                List<QueryResult> best = lease.service()
                    .search(List.of(new QueryRequest(null, query, scope.project(), LocalDateTime.now(ZoneOffset.UTC))),
                            1)
                    .get(0);
                if (best.isEmpty()) {
                    return Answer.error("no memory matches \"" + oneLine(query, 80) + "\" in " + scope.label());
                }
                citation = best.get(0).citation();
            }
        }
        try (SessionLease lease = invocation.read(); Connection c = lease.session().connection()) {
            Optional<CitedMemory> memory = CitationQueries.memory(c, citation);
            if (memory.isEmpty()) {
                return Answer.error("unknown citation: " + citation);
            }
            CitedMemory m = memory.get();
            List<ContextEvent> events = CitationQueries.sourceContext(c, m.memoryId(), before, after);
            Budgeted out = new Budgeted(budget);
            out.line("timeline of [" + m.citation() + "] " + m.kind() + " "
                    + (m.createdTs() == null ? "" : m.createdTs().toLocalDate()) + " — "
                    + oneLine(gated(m.kind(), m.title()), 120));
            out.line("(> marks its source events; tool output is named, not replayed)");
            ContextEvent previous = null;
            for (ContextEvent e : events) {
                if (previous == null || !Objects.equals(previous.sessionId(), e.sessionId())) {
                    out.line("session " + e.sessionId() + ":");
                }
                else if (e.position() > previous.position() + 1) {
                    out.line("  …");
                }
                out.line((e.source() ? "> " : "  ") + (e.ts() == null ? "" : e.ts().toString().replace('T', ' ')) + " "
                        + timelineText(e));
                previous = e;
            }
            return new Answer(out.text(), false);
        }
        catch (SQLException e) {
            throw new DatabaseException("cannot read the timeline: " + e.getMessage(), e);
        }
    }

    /**
     * One event as the context builders show it: the user's prompt as it is, Claude's
     * reply and tool calls through the gate, tool output named and never replayed.
     */
    static String timelineText(ContextEvent e) {
        if (e.prompt() != null) {
            return "user: " + oneLine(e.prompt(), 200);
        }
        if (e.reply() != null) {
            return "Claude: " + oneLine(ContextGate.pass(e.reply()).text(), 200);
        }
        if (e.tool() != null) {
            String call = e.toolInput() == null ? "" : " " + oneLine(ContextGate.pass(e.toolInput()).text(), 160);
            String output = e.toolResponse() == null || e.toolResponse().isBlank() ? ""
                    : " → " + Provenance.of("tool_response", e.tool()).label() + " (not replayed)";
            return "Claude's " + e.tool() + " call:" + call + output;
        }
        return e.eventType() + (e.detail() == null ? "" : " " + oneLine(ContextGate.pass(e.detail()).text(), 80));
    }

    // ---- mem-details

    private Answer details(ToolArguments args) {
        List<String> citations = args.texts("citations");
        if (citations.isEmpty()) {
            citations = args.texts("citation");
        }
        if (citations.isEmpty()) {
            throw new ToolArguments.BadInput("give one citation (mem:xxxxxx) or a list of them");
        }
        if (citations.size() > ToolCatalog.MAX_CITATIONS) {
            throw new ToolArguments.BadInput(
                    "at most " + ToolCatalog.MAX_CITATIONS + " citations at a time, was " + citations.size());
        }
        for (String c : citations) {
            if (CitationQueries.code(c).isEmpty()) {
                throw new ToolArguments.BadInput("not a citation: " + c + " (expected mem:xxxxxx)");
            }
        }
        int budget = budget(args, ToolCatalog.DETAIL_TOKENS);
        Optional<Answer> missing = store.missing().map(Answer::error);
        if (missing.isPresent()) {
            return missing.get();
        }
        Budgeted out = new Budgeted(budget);
        List<String> unknown = new ArrayList<>();
        try (SessionLease lease = invocation.read()) {
            for (String citation : citations) {
                Optional<ShownMemory> shown = ShownMemory.load(lease.session(), citation);
                if (shown.isEmpty()) {
                    unknown.add(citation);
                    continue;
                }
                out.block(shown.get().text().stripTrailing());
                out.block(relations(lease, shown.get().memory()));
            }
        }
        if (!unknown.isEmpty()) {
            out.line("unknown citation" + (unknown.size() == 1 ? "" : "s") + ": " + String.join(", ", unknown));
        }
        return new Answer(out.text(), !unknown.isEmpty());
    }

    /** Which memories this one replaced and which replaced it, by citation. */
    private static String relations(SessionLease lease, CitedMemory m) {
        try (Connection c = lease.session().connection()) {
            List<String> older = ToolQueries.supersededBy(c, m.memoryId());
            List<String> ids = new ArrayList<>(older);
            if (m.supersededBy() != null) {
                ids.add(m.supersededBy());
            }
            Map<String, String> cited = CitationQueries.citationsOf(c, ids);
            StringBuilder s = new StringBuilder();
            s.append("supersedes: ")
                .append(older.isEmpty() ? "none"
                        : String.join(", ", older.stream().map(id -> "[" + cited.getOrDefault(id, id) + "]").toList()));
            s.append("\nsuperseded by: ")
                .append(m.supersededBy() == null ? "none"
                        : "[" + cited.getOrDefault(m.supersededBy(), m.supersededBy()) + "]");
            return s.toString();
        }
        catch (SQLException e) {
            throw new DatabaseException("cannot read what " + m.citation() + " supersedes: " + e.getMessage(), e);
        }
    }

    // ---- mem-tasks

    private Answer tasks(ToolArguments args) {
        int doneDays = args.integer("done_days", 14, 0, 365);
        int limit = args.integer("limit", 30, 1, 200);
        int budget = budget(args, ToolCatalog.SEARCH_TOKENS);
        Optional<Answer> missing = store.missing().map(Answer::error);
        if (missing.isPresent()) {
            return missing.get();
        }
        Scope scope = store.scope(args);
        try (SessionLease lease = invocation.read(); Connection c = lease.session().connection()) {
            List<ToolQueries.TaskRow> open = ToolQueries.tasks(c, scope.project(),
                    Set.of("in_progress", "pending", "blocked"), null, limit);
            List<ToolQueries.TaskRow> done = doneDays == 0 ? List.of() : ToolQueries.tasks(c, scope.project(),
                    Set.of("done"), LocalDateTime.now(ZoneOffset.UTC).minusDays(doneDays), limit);
            List<String> ids = new ArrayList<>();
            open.forEach(t -> ids.add(t.memoryId()));
            done.forEach(t -> ids.add(t.memoryId()));
            Map<String, String> cited = CitationQueries.citationsOf(c, ids);
            Budgeted out = new Budgeted(budget);
            out.line("tasks in " + scope.label() + ": " + open.size() + " open, " + done.size() + " done in the last "
                    + doneDays + " days");
            for (String status : List.of("in_progress", "pending", "blocked")) {
                for (ToolQueries.TaskRow t : open) {
                    if (t.status().equals(status)) {
                        out.line(taskLine(t, cited));
                        if (!t.blockers().isEmpty()) {
                            out.line("    blocked by: "
                                    + oneLine(ContextGate.pass(String.join("; ", t.blockers())).text(), 200));
                        }
                    }
                }
            }
            for (ToolQueries.TaskRow t : done) {
                out.line(taskLine(t, cited));
            }
            return new Answer(out.text(), false);
        }
        catch (SQLException e) {
            throw new DatabaseException("cannot read tasks: " + e.getMessage(), e);
        }
    }

    private static String taskLine(ToolQueries.TaskRow t, Map<String, String> cited) {
        String citation = cited.get(t.memoryId());
        return (citation == null ? "[no citation]" : "[" + citation + "]") + " " + t.status()
                + (t.priority().isBlank() ? "" : " " + t.priority().toLowerCase(Locale.ROOT)) + " "
                + (t.updated() == null ? "" : t.updated().toLocalDate() + " ")
                + oneLine(ContextGate.pass(t.title()).text(), 160);
    }

    // ---- mem-stats

    private Answer stats(ToolArguments args) {
        int budget = budget(args, ToolCatalog.SEARCH_TOKENS);
        Stats.Report report;
        try {
            report = Stats.collect(invocation);
        }
        catch (IOException e) {
            return Answer.error("stats failed: " + e.getMessage());
        }
        Budgeted answer = new Budgeted(budget);
        answer.block(ContextGate.pass(Stats.text(report.doc()).stripTrailing()).text());
        answer.line("serve: "
                + (served ? "running (answered this call)" : "not running (this call read the database " + "itself)"));
        if (report.exit() != 0) {
            answer.line("stats failed: " + report.problem());
            return Answer.error(answer.text());
        }
        return new Answer(answer.text(), false);
    }

}

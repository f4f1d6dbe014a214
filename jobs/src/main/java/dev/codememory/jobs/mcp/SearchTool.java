package dev.codememory.jobs.mcp;

import static dev.codememory.jobs.mcp.ToolText.budget;
import static dev.codememory.jobs.mcp.ToolText.gated;
import static dev.codememory.jobs.mcp.ToolText.oneLine;

import dev.codememory.capture.guard.ContextGate;
import dev.codememory.config.db.DatabaseException;
import dev.codememory.jobs.invocation.Invocation;
import dev.codememory.jobs.mcp.MemoryTools.Answer;
import dev.codememory.jobs.mcp.ToolStore.Scope;
import dev.codememory.jobs.mcp.ToolText.Budgeted;
import dev.codememory.retrieval.citation.CitationQueries;
import dev.codememory.retrieval.citation.ToolQueries;
import dev.codememory.retrieval.context.PromptContextService.QueryLease;
import dev.codememory.retrieval.context.SessionLease;
import dev.codememory.retrieval.query.QueryAnswer;
import dev.codememory.retrieval.query.QueryRequest;
import dev.codememory.retrieval.query.QueryResult;
import dev.codememory.retrieval.query.QueryService;
import dev.codememory.retrieval.ranking.Bm25Index;
import dev.codememory.retrieval.ranking.MatchBand;
import dev.codememory.retrieval.ranking.QueryTokenizer;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code mem-search} tool: what is current, ranked by the hybrid index and filtered
 * by kind and time, or with {@code status: superseded} the memories that index leaves
 * out, ranked by BM25 over their words. Each line cites its memory; a team memory names
 * its author, and its words always pass the {@link ContextGate}.
 */
final class SearchTool {

    private final Invocation invocation;

    private final ToolStore store;

    SearchTool(Invocation invocation, ToolStore store) {
        this.invocation = invocation;
        this.store = store;
    }

    Answer search(ToolArguments args) {
        String query = args.text("query");
        if (query == null) {
            throw new ToolArguments.BadInput("query is empty: say what to look for");
        }
        int limit = args.integer("limit", ToolCatalog.SEARCH_LIMIT, 1, ToolCatalog.MAX_LIMIT);
        Set<String> kinds = kinds(args.texts("kinds"));
        LocalDateTime since = args.time("since", invocation.zone(), false);
        LocalDateTime until = args.time("until", invocation.zone(), true);
        if (since != null && until != null && !since.isBefore(until)) {
            throw new ToolArguments.BadInput("since must be before until");
        }
        String status = status(args.text("status"));
        int budget = budget(args, ToolCatalog.SEARCH_TOKENS);
        Optional<Answer> missing = store.missing().map(Answer::error);
        if (missing.isPresent()) {
            return missing.get();
        }
        Scope scope = store.scope(args);
        if ("superseded".equals(status)) {
            return searchSuperseded(query, scope, kinds, since, until, limit, budget);
        }
        boolean filtered = !kinds.isEmpty() || since != null || until != null;
        List<QueryResult> hits = new ArrayList<>();
        QueryAnswer answer;
        try (QueryLease lease = store.queries()) {
            QueryService service = lease.service();
            QueryRequest request = new QueryRequest(null, query.length() > 4_000 ? query.substring(0, 4_000) : query,
                    scope.project(), LocalDateTime.now(ZoneOffset.UTC));
            List<QueryResult> ranked = service.search(List.of(request), filtered ? Math.max(200, limit * 10) : limit)
                .get(0);
            for (QueryResult r : ranked) {
                if (hits.size() == limit) {
                    break;
                }
                if ((kinds.isEmpty() || kinds.contains(r.kind()))
                        && (since == null || r.createdTs() != null && !r.createdTs().isBefore(since))
                        && (until == null || r.createdTs() != null && r.createdTs().isBefore(until))) {
                    hits.add(r);
                }
            }
            answer = service.answer(request, hits);
        }
        boolean nearMisses = args.flag("near_misses");
        Budgeted out = new Budgeted(budget);
        String head = "mem-search \"" + oneLine(query, 80) + "\" in " + scope.label() + filters(kinds, since, until)
                + ": ";
        if (answer.nothingMatches() && !hits.isEmpty()) {
            int n = hits.size();
            out.line(head + "nothing matches" + (nearMisses ? "; near misses:"
                    : " (" + n + " near miss" + (n == 1 ? "" : "es") + ": near_misses: true lists them)"));
            if (nearMisses) {
                list(answer.nearMisses(), out);
            }
            out.line("try other words, another project (all_projects: true) or fewer filters");
            return new Answer(out.text(), false);
        }
        out.line(head + hits.size() + " memor" + (hits.size() == 1 ? "y" : "ies") + ", match "
                + answer.band().name().toLowerCase(Locale.ROOT));
        list(answer.matches(), out);
        if (hits.isEmpty()) {
            out.line("nothing matches; try other words, another project (all_projects: true) or fewer filters");
        }
        else {
            out.line("mem-details with a citation gives its text and evidence; mem-timeline the events around it.");
        }
        return new Answer(out.text(), false);
    }

    private static void list(List<QueryResult> hits, Budgeted out) {
        for (QueryResult r : hits) {
            // a team memory's words come from another person's machine: always gated
            String summary = oneLine(r.team() ? ContextGate.pass(r.summary()).text() : gated(r.kind(), r.summary()),
                    160);
            String team = r.team() ? " (team: " + oneLine(r.author(), 40) + ")" : "";
            out.line(String.format(Locale.ROOT, "[%s] %s%s %s score %.3f %s — %s", r.citation(), r.kind(), team,
                    r.createdTs() == null ? "?" : r.createdTs().toLocalDate(), r.score(),
                    MatchBand.of(List.of(r.score())).name().toLowerCase(Locale.ROOT),
                    summary.isEmpty() ? "(no summary)" : summary));
        }
    }

    private static String status(String requested) {
        if (requested == null) {
            return "active";
        }
        String status = requested.toLowerCase(Locale.ROOT);
        if (!ToolCatalog.STATUSES.contains(status)) {
            throw new ToolArguments.BadInput(
                    "unknown status " + requested + "; status is one of " + String.join(", ", ToolCatalog.STATUSES));
        }
        return status;
    }

    /**
     * Superseded memories, which the hybrid index leaves out (it holds what is current):
     * ranked by BM25 over their title and text, ties newest first, each with the memory
     * that replaced it.
     */
    private Answer searchSuperseded(String query, Scope scope, Set<String> kinds, LocalDateTime since,
            LocalDateTime until, int limit, int budget) {
        List<ToolQueries.SupersededRow> rows;
        Map<String, String> cited;
        try (SessionLease lease = invocation.read(); Connection c = lease.session().connection()) {
            rows = ToolQueries.superseded(c, scope.project())
                .stream()
                .filter(r -> (kinds.isEmpty() || kinds.contains(r.kind()))
                        && (since == null || r.createdTs() != null && !r.createdTs().isBefore(since))
                        && (until == null || r.createdTs() != null && r.createdTs().isBefore(until)))
                .toList();
            List<String> ids = new ArrayList<>();
            rows.forEach(r -> {
                ids.add(r.memoryId());
                if (r.supersededBy() != null) {
                    ids.add(r.supersededBy());
                }
            });
            cited = CitationQueries.citationsOf(c, ids);
        }
        catch (SQLException e) {
            throw new DatabaseException("cannot read superseded memories: " + e.getMessage(), e);
        }
        Bm25Index index = new Bm25Index();
        for (ToolQueries.SupersededRow r : rows) {
            index.add(r.memoryId(), QueryTokenizer.tokenize(r.title() + "\n" + (r.text() == null ? "" : r.text())));
        }
        double[] scores = index.score(QueryTokenizer.tokenize(query));
        List<Integer> hits = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            if (scores[i] > 0) {
                hits.add(i);
            }
        }
        hits.sort((a, b) -> Double.compare(scores[b], scores[a])); // stable: newest first
                                                                   // on ties
        List<Integer> shown = hits.subList(0, Math.min(limit, hits.size()));
        Budgeted out = new Budgeted(budget);
        out.line("mem-search \"" + oneLine(query, 80) + "\" in " + scope.label() + ": " + shown.size()
                + " superseded memor" + (shown.size() == 1 ? "y" : "ies") + " (ranked on their words alone, bm25)"
                + filters(kinds, since, until));
        for (int i : shown) {
            ToolQueries.SupersededRow r = rows.get(i);
            String newer = r.supersededBy() == null ? "?" : cited.getOrDefault(r.supersededBy(), r.supersededBy());
            out.line(String.format(Locale.ROOT, "[%s] %s %s bm25 %.2f superseded by [%s] — %s",
                    cited.getOrDefault(r.memoryId(), r.memoryId()), r.kind(),
                    r.createdTs() == null ? "?" : r.createdTs().toLocalDate(), scores[i], newer,
                    oneLine(gated(r.kind(), r.title()), 160)));
        }
        out.line(shown.isEmpty() ? "nothing superseded matched; status active (the default) searches what is current"
                : "mem-details on a citation gives the text of either.");
        return new Answer(out.text(), false);
    }

    private static String filters(Set<String> kinds, LocalDateTime since, LocalDateTime until) {
        StringBuilder s = new StringBuilder();
        if (!kinds.isEmpty()) {
            s.append(", kinds ").append(String.join(",", kinds));
        }
        if (since != null) {
            s.append(", since ").append(since).append('Z');
        }
        if (until != null) {
            s.append(", before ").append(until).append('Z');
        }
        return s.toString();
    }

    private static Set<String> kinds(List<String> requested) {
        Set<String> out = new java.util.LinkedHashSet<>();
        for (String k : requested) {
            String kind = k.toLowerCase(Locale.ROOT);
            if (!ToolCatalog.KINDS.contains(kind)) {
                throw new ToolArguments.BadInput(
                        "unknown kind " + k + "; kinds are " + String.join(", ", ToolCatalog.KINDS));
            }
            out.add(kind);
        }
        return out;
    }

}

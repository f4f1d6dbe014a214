package dev.codememory.jobs.viewer;

import static dev.codememory.jobs.viewer.Html.esc;
import static dev.codememory.jobs.viewer.Html.memoryLink;
import static dev.codememory.jobs.viewer.Html.sessionLink;
import static dev.codememory.jobs.viewer.Html.time;
import static dev.codememory.jobs.viewer.Html.url;

import dev.codememory.capture.guard.Provenance;
import dev.codememory.config.db.DuckDb;
import dev.codememory.jobs.search.ShownMemory;
import dev.codememory.jobs.serve.ResidentQueries;
import dev.codememory.readers.align.SessionSourceTexts;
import dev.codememory.readers.injection.InjectedMemory;
import dev.codememory.readers.injection.InjectionQueries;
import dev.codememory.readers.viewer.ViewerQueries;
import dev.codememory.retrieval.citation.CitedMemory;
import dev.codememory.retrieval.citation.CitedSpan;
import dev.codememory.retrieval.query.QueryAnswer;
import dev.codememory.retrieval.query.QueryRequest;
import dev.codememory.retrieval.query.QueryResult;
import dev.codememory.retrieval.query.QueryService;
import dev.codememory.retrieval.ranking.MatchBand;
import dev.codememory.retrieval.ranking.RankingSettings;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The viewer's reading pages — timeline, session, search, memory — on serve's own
 * database session and warm query services, through the same read paths as the commands
 * ({@link ShownMemory#load}, {@link QueryService}, {@link InjectionQueries}). Each method
 * returns the page body; {@link Html#page} wraps it.
 */
final class ViewerPages {

    static final int TIMELINE_ITEMS = 150;

    static final int SEARCH_RESULTS = 20;

    /** How much source text is shown on either side of a highlighted quote. */
    static final int AROUND_QUOTE = 600;

    private final ResidentQueries resident;

    ViewerPages(ResidentQueries resident) {
        this.resident = resident;
    }

    DuckDb.Session session() {
        return resident.session();
    }

    /** The project chooser, as a GET form that keeps the other parameters out. */
    String projectChooser(Connection c, String action, String project) throws SQLException {
        StringBuilder s = new StringBuilder("<form class=\"inline\" method=\"get\" action=\"" + action + "\">");
        s.append("<label>Project <select name=\"project\"><option value=\"\">all projects</option>");
        for (String p : ViewerQueries.projects(c)) {
            s.append("<option")
                .append(p.equals(project) ? " selected" : "")
                .append(">")
                .append(esc(p))
                .append("</option>");
        }
        return s.append("</select></label> <button>Show</button></form>").toString();
    }

    static String memoryList(List<ViewerQueries.MemoryLine> memories) {
        if (memories.isEmpty()) {
            return "<p class=\"meta\">none</p>";
        }
        StringBuilder s = new StringBuilder("<ul class=\"memories\">");
        for (ViewerQueries.MemoryLine m : memories) {
            s.append("<li><span class=\"kind\">")
                .append(esc(m.kind()))
                .append("</span> ")
                .append(memoryLink(m.citation(), m.citation()))
                .append(" ")
                .append(esc(m.title()))
                .append(" <span class=\"meta\">")
                .append(esc(m.status()))
                .append(" · ")
                .append(time(m.createdTs()))
                .append("</span></li>");
        }
        return s.append("</ul>").toString();
    }

    /** The search form's values. */
    record SearchForm(String text, String kind, String status, String from, String to, String project) {

        /** The form as a query string, for a link to the same search. */
        String query() {
            StringBuilder q = new StringBuilder("q=").append(esc(url(text)));
            for (String[] kv : new String[][] { { "kind", kind }, { "status", status }, { "from", from }, { "to", to },
                    { "project", project } }) {
                if (kv[1] != null) {
                    q.append("&amp;").append(kv[0]).append('=').append(esc(url(kv[1])));
                }
            }
            return q.toString();
        }

        static SearchForm of(Map<String, String> q) {
            String status = blank(q.get("status"));
            return new SearchForm(q.getOrDefault("q", "").strip(), blank(q.get("kind")),
                    status == null ? "active" : status, blank(q.get("from")), blank(q.get("to")),
                    blank(q.get("project")));
        }

    }

    /**
     * One search's answer: the hybrid ranking's, as {@code query} gives it
     * ({@link QueryAnswer}: matches, or nothing matches and near misses), or, for
     * superseded memories, those whose text mentions it.
     */
    record SearchAnswer(QueryAnswer ranked, List<ViewerQueries.MemoryLine> lines) {
    }

    SearchAnswer search(SearchForm f) throws SQLException {
        if (f.text().isEmpty()) {
            return new SearchAnswer(QueryAnswer.NOTHING, List.of());
        }
        if (!"active".equals(f.status())) {
            try (Connection c = session().connection()) {
                List<ViewerQueries.MemoryLine> lines = ViewerQueries
                    .containing(c, f.text(), f.status(), f.project(), SEARCH_RESULTS * 5)
                    .stream()
                    .filter(m -> f.kind() == null || f.kind().equals(m.kind()))
                    .filter(m -> within(m.createdTs(), f))
                    .limit(SEARCH_RESULTS)
                    .toList();
                return new SearchAnswer(QueryAnswer.NOTHING, lines);
            }
        }
        QueryService service = resident.queryService(RankingSettings.defaults());
        float[] vector = service.embedder().embed(List.of(f.text()))[0];
        boolean filtered = f.kind() != null || f.from() != null || f.to() != null;
        QueryRequest request = new QueryRequest(null, f.text(), f.project(), LocalDateTime.now(ZoneOffset.UTC));
        List<QueryResult> hits = service.search(request, vector, filtered ? SEARCH_RESULTS * 10 : SEARCH_RESULTS)
            .stream()
            .filter(h -> f.kind() == null || f.kind().equals(h.kind()))
            .filter(h -> within(h.createdTs(), f))
            .limit(SEARCH_RESULTS)
            .toList();
        return new SearchAnswer(service.answer(request, hits), List.of());
    }

    String searchPage(SearchForm f, boolean nearMisses) throws SQLException {
        StringBuilder s = new StringBuilder("<form method=\"get\" action=\"/search\" class=\"search\">");
        s.append("<input type=\"search\" name=\"q\" autofocus placeholder=\"what do you remember about…\" value=\"")
            .append(esc(f.text()))
            .append("\"> ");
        s.append(select("kind", f.kind(), "any kind", "exchange", "fact", "decision", "preference", "task", "insight",
                "topic", "summary", "observation"));
        s.append(select("status", f.status(), null, "active", "superseded"));
        s.append("<label>from <input type=\"date\" name=\"from\" value=\"")
            .append(esc(f.from()))
            .append("\"></label> ");
        s.append("<label>to <input type=\"date\" name=\"to\" value=\"").append(esc(f.to())).append("\"></label> ");
        try (Connection c = session().connection()) {
            s.append("<select name=\"project\"><option value=\"\">all projects</option>");
            for (String p : ViewerQueries.projects(c)) {
                s.append("<option")
                    .append(p.equals(f.project()) ? " selected" : "")
                    .append('>')
                    .append(esc(p))
                    .append("</option>");
            }
            s.append("</select> ");
        }
        s.append("<button>Search</button></form>");
        if (f.text().isEmpty()) {
            return s
                .append("<p class=\"hint\">The same ranking as <code>query</code> and the prompt hook: the words, "
                        + "their meaning, how recent a memory is and whether it is still current, in one score.</p>")
                .toString();
        }
        SearchAnswer answer = search(f);
        if (!answer.lines().isEmpty() || !"active".equals(f.status())) {
            s.append("<p class=\"meta\">")
                .append(SessionPages.counted(answer.lines().size(), esc(f.status()) + " memory",
                        esc(f.status()) + " memories"))
                .append(" mention it (matched by their text: only current memories are ranked)</p>");
            s.append(memoryList(answer.lines()));
            return s.toString();
        }
        QueryAnswer ranked = answer.ranked();
        if (ranked.nothingMatches()) {
            int n = ranked.nearMisses().size();
            s.append("<p class=\"outcome\" id=\"outcome\" data-match=\"none\">Nothing matches \u201c")
                .append(esc(f.text()))
                .append("\u201d.");
            if (n > 0 && !nearMisses) {
                s.append(" <a id=\"near-misses\" href=\"/search?")
                    .append(f.query())
                    .append("&amp;near=1\">Show the ")
                    .append(SessionPages.counted(n, "nearest memory", "nearest memories"))
                    .append(" anyway</a>");
            }
            s.append("</p>");
            if (nearMisses && n > 0) {
                s.append("<p class=\"meta\">Near misses: the memories closest in meaning, none of them a match.</p>")
                    .append(results(ranked.nearMisses()));
            }
            return s.toString();
        }
        s.append("<p class=\"outcome\" id=\"outcome\" data-match=\"")
            .append(ranked.band().name().toLowerCase(Locale.ROOT))
            .append("\">")
            .append(SessionPages.counted(ranked.matches().size(), "memory", "memories"))
            .append(ranked.band() == MatchBand.HIGH ? " match" : " may be related (none is a close match)")
            .append("</p>");
        s.append(results(ranked.matches()));
        s.append("<form method=\"get\" action=\"/forget\"><input type=\"hidden\" name=\"match\" value=\"")
            .append(esc(f.text()))
            .append("\"><button class=\"danger\">Forget everything that mentions this…</button></form>");
        return s.toString();
    }

    private static String results(List<QueryResult> hits) {
        StringBuilder s = new StringBuilder("<ol class=\"results\">");
        for (QueryResult h : hits) {
            s.append("<li><span class=\"score\" title=\"score\">")
                .append(String.format(Locale.ROOT, "%.2f", h.score()))
                .append("</span><span class=\"kind\">")
                .append(esc(h.kind()))
                .append("</span><span class=\"what\">")
                .append(memoryLink(h.citation(),
                        h.summary() == null || h.summary().isBlank() ? h.citation() : h.summary()))
                .append(h.team() ? " <span class=\"meta\">(from " + esc(h.author()) + ")</span>" : "")
                .append("</span><time>")
                .append(h.createdTs() == null ? "" : esc(h.createdTs().toLocalDate()))
                .append("</time></li>");
        }
        return s.append("</ol>").toString();
    }

    Optional<String> memory(String citation) throws SQLException {
        Optional<ShownMemory> found = ShownMemory.load(session(), citation);
        if (found.isEmpty()) {
            return Optional.empty();
        }
        ShownMemory shown = found.get();
        CitedMemory m = shown.memory();
        StringBuilder s = new StringBuilder();
        s.append("<dl class=\"facts\"><dt>citation</dt><dd><code id=\"citation\">")
            .append(esc(m.citation()))
            .append("</code></dd><dt>kind</dt><dd>")
            .append(esc(m.kind()))
            .append("</dd><dt>status</dt><dd id=\"status\">")
            .append(esc(m.status()))
            .append(" (")
            .append(esc(m.stage()))
            .append(")</dd><dt>project</dt><dd>")
            .append(esc(m.project()))
            .append("</dd><dt>session</dt><dd>")
            .append(m.sessionId() == null ? "" : sessionLink(m.sessionId()))
            .append("</dd><dt>created</dt><dd>")
            .append(time(m.createdTs()))
            .append("</dd>");
        if (m.supersededBy() != null) {
            s.append("<dt>superseded by</dt><dd>").append(esc(m.supersededBy())).append("</dd>");
        }
        s.append("</dl><h2>")
            .append(esc(m.title()))
            .append("</h2><pre class=\"body\">")
            .append(esc(m.body()))
            .append("</pre>");
        s.append("<h2>Evidence</h2><p class=\"hint\">Each quote highlighted inside the event it was found in, "
                + "as recorded. Tool output is data, never instructions.</p>");
        SessionSourceTexts sources = new SessionSourceTexts(session()::connection);
        for (CitedSpan span : shown.spans()) {
            Provenance provenance = Provenance.of(span.field(), span.tool());
            s.append("<div class=\"evidence\"><div class=\"label\">quote #")
                .append(span.quoteIndex())
                .append(" · ")
                .append(esc(provenance.label()))
                .append(" · ")
                .append(esc(span.method()))
                .append(String.format(Locale.ROOT, " %.2f", span.confidence()))
                .append(" · event <code>")
                .append(esc(span.eventId()))
                .append("</code></div><pre>")
                .append(highlighted(sources.text(span.eventId(), span.field()), span.start(), span.end()))
                .append("</pre></div>");
        }
        if (shown.spans().isEmpty()) {
            s.append("<p class=\"meta\">no evidence spans</p>");
        }
        try (Connection c = session().connection()) {
            s.append("<h2>Supersedes</h2>").append(memoryList(ViewerQueries.superseded(c, m.memoryId())));
            List<InjectedMemory> injections = InjectionQueries.forMemory(c, m.memoryId());
            s.append("<h2>Injected into Claude's context</h2>");
            if (injections.isEmpty()) {
                s.append("<p class=\"meta\">never</p>");
            }
            else {
                s.append("<table><thead><tr><th>when</th><th>hook</th><th>band</th><th>rank</th><th>score</th>"
                        + "<th>session</th></tr></thead><tbody>");
                for (InjectedMemory i : injections) {
                    s.append("<tr><td>")
                        .append(time(i.injectedAt()))
                        .append("</td><td>")
                        .append(esc(i.hookEventName()))
                        .append("</td><td>")
                        .append(esc(i.band()))
                        .append("</td><td>")
                        .append(i.rank())
                        .append("</td><td>")
                        .append(String.format(Locale.ROOT, "%.3f", i.score()))
                        .append("</td><td>")
                        .append(i.sessionId() == null ? "" : sessionLink(i.sessionId()))
                        .append("</td></tr>");
                }
                s.append("</tbody></table>");
            }
        }
        s.append(forgetButton("citation", m.citation(), "Forget this memory…"));
        return Optional.of(s.toString());
    }

    /**
     * The source text around [start, end) with the quote in {@code <mark>}; every piece
     * escaped.
     */
    static String highlighted(String text, int start, int end) {
        if (text == null || end > text.length() || start < 0 || start > end) {
            return "<span class=\"meta\">(source text not found)</span>";
        }
        int from = Math.max(0, start - AROUND_QUOTE);
        int to = Math.min(text.length(), end + AROUND_QUOTE);
        return (from > 0 ? "…" : "") + esc(text.substring(from, start)) + "<mark>" + esc(text.substring(start, end))
                + "</mark>" + esc(text.substring(end, to)) + (to < text.length() ? "…" : "");
    }

    /**
     * A link to the forget page with what to forget filled in (nothing happens before the
     * confirmation).
     */
    static String forgetButton(String field, String value, String label) {
        return "<form method=\"get\" action=\"/forget\" class=\"forget\"><input type=\"hidden\" name=\"" + field
                + "\" value=\"" + esc(value) + "\"><button class=\"danger\" id=\"forget\">" + esc(label)
                + "</button></form>";
    }

    private static String select(String name, String value, String any, String... options) {
        StringBuilder s = new StringBuilder("<select name=\"" + name + "\">");
        if (any != null) {
            s.append("<option value=\"\">").append(esc(any)).append("</option>");
        }
        for (String o : options) {
            s.append("<option")
                .append(o.equals(value) ? " selected" : "")
                .append('>')
                .append(esc(o))
                .append("</option>");
        }
        return s.append("</select> ").toString();
    }

    private static boolean within(LocalDateTime created, SearchForm f) {
        LocalDate day = created == null ? null : created.toLocalDate();
        return (f.from() == null || day != null && !day.isBefore(date(f.from())))
                && (f.to() == null || day != null && !day.isAfter(date(f.to())));
    }

    private static LocalDate date(String s) {
        try {
            return LocalDate.parse(s);
        }
        catch (DateTimeParseException e) {
            throw new IllegalArgumentException("not a date (YYYY-MM-DD): " + s);
        }
    }

    static String blank(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }

    static List<String> list(Object... items) {
        List<String> out = new ArrayList<>();
        for (Object o : items) {
            out.add(String.valueOf(o));
        }
        return out;
    }

}

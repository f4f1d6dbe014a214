package dev.codememory.jobs.viewer;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.codememory.config.json.Json;
import dev.codememory.jobs.search.ShownMemory;
import dev.codememory.readers.report.ReportQueries;
import dev.codememory.readers.viewer.ViewerQueries;
import dev.codememory.retrieval.query.QueryResult;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The web viewer's HTTP side, on the JDK's own server (no servlet container in a process
 * that is mostly a batch runner): bound to the loopback address only, every answer behind
 * the same gate —
 * <ol>
 * <li>the {@code Host} header must name this address ({@code 127.0.0.1:PORT} or
 * {@code localhost:PORT}), so a DNS-rebound name gets 421;</li>
 * <li>every page and API answer needs the session cookie ({@link ViewerAuth}); without it
 * 401, never a redirect; a one-time {@code ?t=} token on a GET is traded for the cookie
 * first;</li>
 * <li>a POST needs an {@code Origin} of this address and the session's CSRF token
 * ({@code csrf_token} field or {@code X-CSRF-Token} header), else 403;</li>
 * <li>no CORS header is ever sent; a strict Content-Security-Policy, no framing, no
 * sniffing, no referrer outside the viewer, no caching on every answer.</li>
 * </ol>
 */
final class ViewerServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ViewerServer.class);

    static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
            + "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

    /** Requests answered at once (the JDK server reads requests on further threads). */
    private static final int WORKERS = 8;

    /**
     * How long a client may take to send its whole request (line, headers, body), in
     * seconds: a browser on loopback sends it at once; a client that stalls longer is
     * disconnected, freeing the thread that was reading it.
     */
    static final int REQUEST_DEADLINE_SECONDS = 10;

    /**
     * The JDK server's request deadline, read once, when a JVM makes its first server.
     */
    private static final String MAX_REQUEST_TIME = "sun.net.httpserver.maxReqTime";

    /** Live timelines open at once (each holds a worker while open). */
    private static final int STREAMS = 4;

    private static final int MAX_FORM_BYTES = 64 * 1024;

    private final HttpServer server;

    private final ViewerAuth auth;

    private final ViewerPages pages;

    private final SessionPages sessions;

    private final ViewerAdminPages admin;

    private final ExecutorService threads;

    private final Semaphore workers = new Semaphore(WORKERS);

    private final Semaphore streams = new Semaphore(STREAMS);

    private final Set<String> hosts;

    private final Set<String> origins;

    private volatile boolean open = true;

    private ViewerServer(HttpServer server, ViewerAuth auth, ViewerPages pages, ViewerAdminPages admin,
            ExecutorService threads) {
        this.server = server;
        this.auth = auth;
        this.pages = pages;
        this.sessions = new SessionPages(pages);
        this.admin = admin;
        this.threads = threads;
        int port = server.getAddress().getPort();
        this.hosts = Set.of("127.0.0.1:" + port, "localhost:" + port);
        this.origins = Set.of("http://127.0.0.1:" + port, "http://localhost:" + port);
    }

    /**
     * Binds 127.0.0.1:{@code port} (0: a free port) and starts answering.
     * <p>
     * The JDK server reads a request's line and headers on the executor's thread, before
     * any handler runs: on a fixed pool, nine clients that never finish their headers
     * would hold every thread and no signed-in request would be answered. So each
     * connection being read gets its own thread (a cached pool), a client gets
     * {@link #REQUEST_DEADLINE_SECONDS} to send its request before the server drops it,
     * and only the answering is bounded, at {@link #WORKERS} at once.
     */
    static ViewerServer start(int port, ViewerAuth auth, ViewerPages pages, ViewerAdminPages admin) throws IOException {
        if (System.getProperty(MAX_REQUEST_TIME) == null) {
            System.setProperty(MAX_REQUEST_TIME, Integer.toString(REQUEST_DEADLINE_SECONDS));
        }
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 16);
        AtomicInteger n = new AtomicInteger();
        ExecutorService threads = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "code-memory-viewer-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(threads);
        ViewerServer viewer = new ViewerServer(server, auth, pages, admin, threads);
        server.createContext("/", viewer::handle);
        server.start();
        return viewer;
    }

    /** The address to show a user: {@code http://127.0.0.1:PORT}. */
    String address() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** A one-time sign-in address. */
    String signIn() {
        return address() + "/?t=" + auth.newToken();
    }

    @Override
    public void close() {
        open = false;
        server.stop(0);
        threads.shutdownNow();
    }

    /**
     * Answers one request; a failure is answered with its status and message before the
     * exchange closes (closing first would send the client an empty answer).
     */
    private void handle(HttpExchange x) throws IOException {
        try (x) {
            try {
                workers.acquire();
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            try {
                answer(x);
            }
            catch (IllegalArgumentException e) {
                fail(x, 400, e.getMessage());
            }
            catch (IOException e) {
                log.debug("viewer: client went away: {}", e.getMessage());
            }
            catch (Exception e) {
                log.warn("viewer: {} {} failed: {}", x.getRequestMethod(), x.getRequestURI().getRawPath(),
                        e.toString());
                fail(x, 500, "failed: " + e.getMessage());
            }
            finally {
                workers.release();
            }
        }
    }

    private static void fail(HttpExchange x, int status, String message) {
        try {
            text(x, status, String.valueOf(message));
        }
        catch (IOException | RuntimeException e) {
            // the answer had begun, or the client went away
        }
    }

    private void answer(HttpExchange x) throws Exception {
        secureHeaders(x);
        String host = x.getRequestHeaders().getFirst("Host");
        if (host == null || !hosts.contains(host.toLowerCase(Locale.ROOT))) {
            text(x, 421, "unknown host: the viewer answers only as " + address());
            return;
        }
        String path = x.getRequestURI().getRawPath();
        String method = x.getRequestMethod();
        if (path.equals("/favicon.ico")) {
            x.sendResponseHeaders(204, -1);
            return;
        }
        if (path.startsWith("/static/") && "GET".equals(method)) {
            asset(x, path.substring("/static/".length()));
            return;
        }
        Map<String, String> query = params(x.getRequestURI().getRawQuery());
        String cookie = cookie(x);
        if ("GET".equals(method) && query.containsKey("t")) {
            Optional<String> session = auth.exchange(query.get("t"));
            if (session.isPresent() || auth.valid(cookie)) {
                session.ifPresent(s -> x.getResponseHeaders()
                    .add("Set-Cookie", auth.cookieName() + "=" + s + "; " + auth.cookieAttributes()));
                x.getResponseHeaders().set("Location", path);
                x.sendResponseHeaders(303, -1);
                return;
            }
        }
        if (!auth.valid(cookie)) {
            html(x, 401, "<!doctype html><title>code-memory: sign in</title><h1>Sign in</h1><p>Open the address "
                    + "<code>java -jar jobs.jar viewer</code> prints: it signs this browser in (a sign-in lasts "
                    + ViewerAuth.SESSION_LIFETIME.toHours() + " hours at most, ends after an idle hour and when serve "
                    + "stops).</p>");
            return;
        }
        if ("POST".equals(method)) {
            post(x, path, cookie);
        }
        else if ("GET".equals(method) || "HEAD".equals(method)) {
            get(x, path, query, cookie);
        }
        else {
            x.getResponseHeaders().set("Allow", "GET, POST");
            text(x, 405, "method not allowed");
        }
    }

    private void get(HttpExchange x, String rawPath, Map<String, String> q, String cookie) throws Exception {
        String csrf = auth.csrf(cookie);
        String path = URLDecoder.decode(rawPath, StandardCharsets.UTF_8);
        String project = ViewerPages.blank(q.get("project"));
        if (path.equals("/")) {
            html(x, 200, Html.page("/", "Timeline", sessions.timeline(project), csrf));
        }
        else if (path.startsWith("/session/")) {
            String id = path.substring("/session/".length());
            Optional<String> body = sessions.session(id);
            html(x, body.isPresent() ? 200 : 404,
                    Html.page("", "Session " + id, body.orElse("<p>no session " + Html.esc(id) + "</p>"), csrf));
        }
        else if (path.equals("/search")) {
            html(x, 200, Html.page("/search", "Search",
                    pages.searchPage(ViewerPages.SearchForm.of(q), q.containsKey("near")), csrf));
        }
        else if (path.startsWith("/memory/")) {
            String citation = path.substring("/memory/".length());
            Optional<String> body = pages.memory(citation);
            html(x, body.isPresent() ? 200 : 404,
                    Html.page("", "Memory " + citation, body.orElse(
                            "<p id=\"gone\">no memory " + Html.esc(citation) + " (unknown citation, or forgotten)</p>"),
                            csrf));
        }
        else if (path.equals("/tasks")) {
            html(x, 200, Html.page("/tasks", "Tasks", admin.tasks(project), csrf));
        }
        else if (path.equals("/context")) {
            html(x, 200, Html.page("/context", "Context preview", admin.context(project, q.get("prompt")), csrf));
        }
        else if (path.equals("/health")) {
            html(x, 200, Html.page("/health", "Health", admin.health(), csrf));
        }
        else if (path.equals("/forget")) {
            html(x, 200, Html.page("/forget", "Forget", admin.forgetForm(ViewerAdminPages.Target.of(q), csrf), csrf));
        }
        else if (path.equals("/api/stream")) {
            stream(x, q, cookie);
        }
        else if (path.startsWith("/api/")) {
            json(x, api(path.substring("/api/".length()), q));
        }
        else {
            text(x, 404, "no page " + path);
        }
    }

    private Object api(String what, Map<String, String> q) throws Exception {
        if (what.equals("timeline")) {
            try (Connection c = pages.session().connection()) {
                return ViewerQueries.timeline(c, ViewerPages.blank(q.get("project")), ViewerPages.TIMELINE_ITEMS)
                    .stream()
                    .map(ViewerServer::item)
                    .toList();
            }
        }
        if (what.equals("search")) {
            ViewerPages.SearchAnswer answer = pages.search(ViewerPages.SearchForm.of(q));
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("band", answer.ranked().band().name().toLowerCase(Locale.ROOT));
            doc.put("results", answer.ranked().ranked().stream().map(QueryResult::toJson).toList());
            return doc;
        }
        if (what.startsWith("memory/")) {
            return ShownMemory.load(pages.session(), what.substring("memory/".length()))
                .map(ShownMemory::toJson)
                .orElseThrow(() -> new IllegalArgumentException("unknown citation"));
        }
        if (what.equals("health")) {
            try (Connection c = pages.session().connection()) {
                ReportQueries.Lag lag = ReportQueries.lag(c);
                Map<String, Object> doc = new LinkedHashMap<>();
                doc.put("pending_events", lag.pendingEvents());
                doc.put("lag_median_seconds", lag.medianSeconds());
                doc.put("lag_p95_seconds", lag.p95Seconds());
                doc.put("embedding", ViewerQueries.embeddingProgress(c));
                return doc;
            }
        }
        throw new IllegalArgumentException("no API " + what);
    }

    private static Map<String, Object> item(ViewerQueries.TimelineItem i) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("kind", i.kind());
        m.put("id", i.id());
        m.put("ts", Html.time(i.ts()));
        m.put("session_id", i.sessionId());
        m.put("type", i.type());
        m.put("text", i.text());
        m.put("seq", i.seq());
        return m;
    }

    /**
     * Server-sent events: every second, the events ingested and the memories graduated
     * since the marks the page was drawn at, as JSON the page's script adds with
     * {@code textContent} (never as markup).
     */
    private void stream(HttpExchange x, Map<String, String> q, String cookie) throws Exception {
        if (!streams.tryAcquire()) {
            text(x, 503, "too many live timelines open");
            return;
        }
        try {
            long seq = Long.parseLong(q.getOrDefault("seq", "0"));
            LocalDateTime memories = q.containsKey("memories") && !q.get("memories").isBlank()
                    ? LocalDateTime.parse(q.get("memories")) : LocalDateTime.now(java.time.ZoneOffset.UTC);
            String project = ViewerPages.blank(q.get("project"));
            x.getResponseHeaders().set("Content-Type", "text/event-stream; charset=utf-8");
            x.sendResponseHeaders(200, 0);
            OutputStream out = x.getResponseBody();
            out.write(": live\n\n".getBytes(StandardCharsets.UTF_8));
            out.flush();
            // an open timeline is use; it ends with its session
            while (open && auth.valid(cookie)) {
                List<ViewerQueries.TimelineItem> fresh = new ArrayList<>();
                try (Connection c = pages.session().connection()) {
                    fresh.addAll(ViewerQueries.eventsAfter(c, seq, 100));
                    List<ViewerQueries.TimelineItem> graduated = ViewerQueries.memoriesAfter(c, memories, 100);
                    if (!graduated.isEmpty()) {
                        memories = (LocalDateTime) ViewerQueries.marks(c)[1];
                    }
                    fresh.addAll(graduated);
                }
                for (ViewerQueries.TimelineItem i : fresh) {
                    seq = Math.max(seq, i.seq());
                    if (project == null || project.equals(i.project())) {
                        out.write(("data: " + Json.write(item(i)) + "\n\n").getBytes(StandardCharsets.UTF_8));
                    }
                }
                if (fresh.isEmpty()) {
                    // a comment each quiet second: a page that went away is noticed
                    // within a second and its worker freed
                    out.write(":\n\n".getBytes(StandardCharsets.UTF_8));
                }
                out.flush();
                TimeUnit.SECONDS.sleep(1);
            }
        }
        finally {
            streams.release();
        }
    }

    private void post(HttpExchange x, String path, String cookie) throws Exception {
        String origin = x.getRequestHeaders().getFirst("Origin");
        if (origin == null || !origins.contains(origin.toLowerCase(Locale.ROOT))) {
            text(x, 403, "refused: a change must come from the viewer's own pages (Origin " + origin + ")");
            return;
        }
        Map<String, String> form = params(readForm(x));
        String token = form.containsKey("csrf_token") ? form.get("csrf_token")
                : x.getRequestHeaders().getFirst("X-CSRF-Token");
        if (!auth.csrfMatches(cookie, token)) {
            text(x, 403, "refused: missing or wrong CSRF token");
            return;
        }
        if (path.equals("/signout")) {
            auth.signOut(cookie);
            x.getResponseHeaders().add("Set-Cookie", auth.cookieName() + "=; " + auth.clearedCookieAttributes());
            html(x, 200, "<!doctype html><title>code-memory: signed out</title><h1>Signed out</h1><p>This browser's "
                    + "session has ended; <code>java -jar jobs.jar viewer</code> prints an address to sign in again.</p>");
            return;
        }
        String csrf = auth.csrf(cookie);
        ViewerAdminPages.Target target = ViewerAdminPages.Target.of(form);
        if (target == null) {
            throw new IllegalArgumentException("say what to forget: a citation, a session or a phrase");
        }
        if (path.equals("/forget/preview")) {
            html(x, 200, Html.page("/forget", "Forget: preview", admin.forgetPreview(target, csrf), csrf));
        }
        else if (path.equals("/forget") && "yes".equals(form.get("confirm"))) {
            html(x, 200, Html.page("/forget", "Forgotten", admin.forget(target), csrf));
        }
        else {
            text(x, 404, "nothing to post to " + path);
        }
    }

    private static String readForm(HttpExchange x) throws IOException {
        try (InputStream in = x.getRequestBody()) {
            byte[] body = in.readNBytes(MAX_FORM_BYTES + 1);
            if (body.length > MAX_FORM_BYTES) {
                throw new IllegalArgumentException("form over " + MAX_FORM_BYTES + " bytes");
            }
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    private String cookie(HttpExchange x) {
        for (String header : x.getRequestHeaders().getOrDefault("Cookie", List.of())) {
            for (String part : header.split(";")) {
                String p = part.strip();
                if (p.startsWith(auth.cookieName() + "=")) {
                    return p.substring(auth.cookieName().length() + 1);
                }
            }
        }
        return null;
    }

    static Map<String, String> params(String raw) {
        Map<String, String> params = new LinkedHashMap<>();
        if (raw == null || raw.isEmpty()) {
            return params;
        }
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            String key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            params.putIfAbsent(key, value);
        }
        return params;
    }

    private static void secureHeaders(HttpExchange x) {
        var h = x.getResponseHeaders();
        h.set("Content-Security-Policy", CSP);
        h.set("X-Content-Type-Options", "nosniff");
        h.set("X-Frame-Options", "DENY");
        // same-origin, not no-referrer: under no-referrer a browser sends "Origin: null"
        // with a form's POST, and the Origin check could not tell our pages from others
        h.set("Referrer-Policy", "same-origin");
        h.set("Cache-Control", "no-store");
        h.set("Cross-Origin-Opener-Policy", "same-origin");
        h.set("Cross-Origin-Resource-Policy", "same-origin");
    }

    private void asset(HttpExchange x, String name) throws IOException {
        String type = name.equals("app.js") ? "text/javascript; charset=utf-8"
                : name.equals("app.css") ? "text/css; charset=utf-8" : null;
        InputStream in = type == null ? null : ViewerServer.class.getResourceAsStream("/viewer/" + name);
        if (in == null) {
            text(x, 404, "no such file");
            return;
        }
        try (in) {
            send(x, 200, type, in.readAllBytes());
        }
    }

    private static void html(HttpExchange x, int status, String body) throws IOException {
        send(x, status, "text/html; charset=utf-8", body.getBytes(StandardCharsets.UTF_8));
    }

    private static void json(HttpExchange x, Object value) throws IOException {
        send(x, 200, "application/json", Json.write(value).getBytes(StandardCharsets.UTF_8));
    }

    private static void text(HttpExchange x, int status, String body) throws IOException {
        send(x, status, "text/plain; charset=utf-8", body.getBytes(StandardCharsets.UTF_8));
    }

    private static void send(HttpExchange x, int status, String type, byte[] body) throws IOException {
        x.getResponseHeaders().set("Content-Type", type);
        boolean head = "HEAD".equals(x.getRequestMethod());
        x.sendResponseHeaders(status, head ? -1 : body.length == 0 ? -1 : body.length);
        if (!head && body.length > 0) {
            x.getResponseBody().write(body);
        }
    }

    static URI uri(String s) {
        return URI.create(s);
    }

}

package dev.codememory.jobs.viewer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.abort;

import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.config.json.Json;
import dev.codememory.jobs.JobsJar;
import dev.codememory.jobs.client.ServeClient;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The web viewer of a graduated home, served by a real {@code serve}: driven in Chromium
 * through {@code playwright-core} as a user would (every page from the address
 * {@code viewer --url} prints, search, a memory's highlighted evidence, a new event on
 * the open timeline, forget with confirmation; screenshots in
 * {@code target/viewer-screenshots}), and probed for what it must refuse (no cookie, a
 * foreign Host, a cross-origin or token-less POST, any address but loopback).
 * {@code .ci/run} installs Chromium and playwright-core; without them the browser walk is
 * skipped, the security checks still run.
 */
class ViewerBrowserIntegrationTests {

    private static final String FIXTURE_DIR = "/tmp/code-memory-fixture";

    private static final Path SHOTS = Path.of("target", "viewer-screenshots").toAbsolutePath();

    @TempDir
    static Path tmp;

    static Path home;

    static Process serve;

    static Path serveLog;

    @BeforeAll
    static void serveAGraduatedHome() throws Exception {
        home = tmp.resolve("home");
        Files.createDirectories(tmp.resolve("shop-api/.git"));
        String hooks = new String(
                ViewerBrowserIntegrationTests.class.getResourceAsStream("/fixtures/claude-code-session.jsonl")
                    .readAllBytes(),
                StandardCharsets.UTF_8)
            .replace(FIXTURE_DIR, tmp.toString());
        Files.writeString(tmp.resolve("hooks.jsonl"), hooks);
        assertThat(JobsJar.run(home, new byte[0], "import", "--hooks", tmp.resolve("hooks.jsonl").toString()).exit())
            .isZero();
        JobsJar.Result graduated = JobsJar.run(home, new byte[0], "--job=graduate");
        assertThat(graduated.exit()).as(graduated.stderr()).isZero();
        serveLog = tmp.resolve("serve.log");
        // no schedule: only the test's own ingest changes the store
        serve = JobsJar.start(home, serveLog, "serve", "--code-memory.schedule.enabled=false");
        awaitWarm();
    }

    @AfterAll
    static void stopServe() throws Exception {
        if (serve != null) {
            serve.destroy();
            serve.waitFor(60, TimeUnit.SECONDS);
        }
    }

    @Test
    void walksEveryPageInChromium() throws Exception {
        Path chromium = Path.of(System.getenv().getOrDefault("CODE_MEMORY_CHROMIUM", "/usr/bin/chromium"));
        Path playwright = Path.of(System.getenv()
            .getOrDefault("CODE_MEMORY_PLAYWRIGHT_CORE",
                    Path.of("..", ".e2e", "node_modules", "playwright-core").toAbsolutePath().normalize().toString()));
        if (!Files.isExecutable(chromium) || !Files.isDirectory(playwright)) {
            // CI installs both (.ci/run): there, a missing browser is a failure, not a
            // skip
            assertThat(System.getenv("CI"))
                .as("CI runs the browser tests: no Chromium at %s or no playwright-core at %s", chromium, playwright)
                .isNotEqualTo("true");
            abort("no Chromium at " + chromium + " or no playwright-core at " + playwright
                    + " (.ci/run installs both)");
        }
        Files.createDirectories(SHOTS);
        Path script = tmp.resolve("browser-walk.cjs");
        Files.write(script, getClass().getResourceAsStream("/viewer/browser-walk.cjs").readAllBytes());
        String url = viewerUrl();

        ProcessBuilder node = new ProcessBuilder("node", script.toString()).redirectErrorStream(true);
        node.environment()
            .putAll(Map.of("VIEWER_URL", url, "SHOTS", SHOTS.toString(), "PLAYWRIGHT_CORE", playwright.toString(),
                    "CHROMIUM", chromium.toString(), "JAVA",
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(), "JAR", JobsJar.JAR.toString(),
                    "HOME_DIR", home.toString(), "PROJECT", tmp.resolve("shop-api").toString()));
        Process walk = node.start();
        String output = new String(walk.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(walk.waitFor(240, TimeUnit.SECONDS)).isTrue();
        String last = output.strip().lines().reduce((a, b) -> b).orElse("");
        assertThat(walk.exitValue()).as("the walk's output:\n%s\nserve's log:\n%s", output, tail(serveLog)).isZero();
        Map<?, ?> seen = (Map<?, ?>) Json.parse(last);

        assertThat(seen.get("pages").toString()).contains("Search", "Tasks", "Context preview", "Health", "Forget",
                "Timeline");
        // the timeline tells sessions as stories: the session's goal heads its section,
        // its latest exchanges below in words, no bookkeeping rows
        assertThat(number(seen, "stories")).isOne();
        assertThat(number(seen, "firstChildIsGoal")).isOne();
        assertThat((String) seen.get("firstGoal")).isEqualTo("The checkout tests fail on CI. Can you find out why?");
        assertThat(number(seen, "latestItems")).isEqualTo(4);
        assertThat((String) seen.get("timelineText")).contains("Claude keeps ", "3 prompts, 2 tool calls")
            .doesNotContainIgnoringCase("sessionend")
            .doesNotContain("prompt_input_exit");
        assertThat(number(seen, "results")).isPositive();
        assertThat(seen.get("band")).isIn("high", "suggested");
        assertThat((String) seen.get("searchText")).doesNotContainIgnoringCase("band");
        // a word no memory holds: nothing matches, the near misses only when asked for
        assertThat((String) seen.get("nothing")).startsWith("Nothing matches \u201ckubernetes\u201d.");
        assertThat(number(seen, "nothingResults")).isZero();
        assertThat(number(seen, "nothingForget")).isZero();
        assertThat(number(seen, "nearMisses")).isPositive();
        assertThat(number(seen, "marks")).isPositive();
        assertThat((String) seen.get("firstMark")).isNotBlank();
        // a session reads as a story: goal, what was done, what Claude keeps, then what
        // happened in words (a tool call named, never its JSON)
        assertThat(number(seen, "sessionEvents")).isEqualTo(10);
        assertThat((String) seen.get("sessionGoal")).startsWith("The checkout tests fail on CI. Can you find out why?");
        assertThat((String) seen.get("sessionText"))
            .contains("What Claude keeps from it", "What happened", "session ended (prompt_input_exit)")
            .containsPattern("tool\\s+Bash: ")
            .containsPattern("tool\\s+Edit ")
            .doesNotContain("{\"");
        assertThat((String) seen.get("sessionMarkup")).doesNotContain("{&quot;", "{\"");
        assertThat(number(seen, "taskCards")).isPositive();
        assertThat(number(seen, "contextBlocks")).isPositive();
        // health in plain sentences, a chart beside them, no raw counts maps
        assertThat(number(seen, "sentences")).isBetween(3L, 4L);
        assertThat((String) seen.get("healthText")).contains("Capture works: ", "Claude keeps ")
            .doesNotContain("{verified", "pending=", "active=");
        assertThat(number(seen, "chart")).isEqualTo(30);
        assertThat(number(seen, "liveEventMs")).isLessThan(20_000);
        assertThat((String) seen.get("preview")).contains("would remove: ", "1 memory", "dry run: nothing was changed");
        assertThat((String) seen.get("forgot")).startsWith("forgot " + seen.get("citation"));
        assertThat(number(seen, "afterStatus")).isEqualTo(404);
        assertThat(number(seen, "gone")).isOne();
        for (String shot : List.of("timeline", "search", "search-nothing", "memory", "session", "tasks", "context",
                "health", "timeline-live", "forget-preview", "forgotten")) {
            assertThat(SHOTS.resolve(shot + ".png")).isNotEmptyFile();
        }
        // the forgotten memory is gone for the command line too
        JobsJar.Result show = JobsJar.run(home, new byte[0], "show", (String) seen.get("citation"));
        assertThat(show.exit()).isEqualTo(1);
    }

    @Test
    void refusesWhatIsNotTheSignedInViewer() throws Exception {
        String url = viewerUrl();
        URI signIn = URI.create(url);
        String base = "http://127.0.0.1:" + signIn.getPort();
        HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();

        // no cookie: 401 on pages and API alike, never a redirect to somewhere
        for (String path : List.of("/", "/search?q=checkout", "/memory/mem:AAAAAA", "/health", "/api/timeline",
                "/api/stream")) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + path)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as(path).isEqualTo(401);
            assertThat(r.headers().firstValue("Location")).isEmpty();
            assertThat(r.headers().firstValue("Access-Control-Allow-Origin")).isEmpty();
        }

        // the one-time token becomes an HttpOnly, SameSite=Strict cookie for 12 hours at
        // most, once
        HttpResponse<String> signedIn = http.send(HttpRequest.newBuilder(signIn).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(signedIn.statusCode()).isEqualTo(303);
        String setCookie = signedIn.headers().firstValue("Set-Cookie").orElseThrow();
        assertThat(setCookie).contains("HttpOnly", "SameSite=Strict", "Max-Age=43200");
        String cookie = setCookie.substring(0, setCookie.indexOf(';'));
        HttpResponse<String> again = http.send(HttpRequest.newBuilder(signIn).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(again.statusCode()).as("a used token").isEqualTo(401);

        HttpResponse<String> page = http.send(
                HttpRequest.newBuilder(URI.create(base + "/")).header("Cookie", cookie).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Security-Policy").orElseThrow()).contains("default-src 'none'",
                "script-src 'self'", "frame-ancestors 'none'");
        assertThat(page.headers().firstValue("Access-Control-Allow-Origin")).isEmpty();
        String csrf = page.body().replaceAll("(?s).*name=\"csrf-token\" content=\"([^\"]+)\".*", "$1");

        // a wrong Host (DNS rebinding) is refused even with the cookie
        assertThat(rawStatus(signIn.getPort(), "GET / HTTP/1.1\r\nHost: attacker.example:" + signIn.getPort()
                + "\r\nCookie: " + cookie + "\r\nConnection: close\r\n\r\n"))
            .isEqualTo(421);

        // a cross-origin POST is refused; so is one without the CSRF token
        String form = "csrf_token=" + csrf + "&match=checkout";
        HttpResponse<String> crossOrigin = http.send(HttpRequest.newBuilder(URI.create(base + "/forget/preview"))
            .header("Cookie", cookie)
            .header("Origin", "http://attacker.example")
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(form))
            .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(crossOrigin.statusCode()).isEqualTo(403);
        HttpResponse<String> noToken = http.send(HttpRequest.newBuilder(URI.create(base + "/forget/preview"))
            .header("Cookie", cookie)
            .header("Origin", base)
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString("match=checkout"))
            .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(noToken.statusCode()).isEqualTo(403);
        HttpResponse<String> sameOrigin = http.send(HttpRequest.newBuilder(URI.create(base + "/forget/preview"))
            .header("Cookie", cookie)
            .header("Origin", base)
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(form))
            .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(sameOrigin.statusCode()).isEqualTo(200);
        assertThat(sameOrigin.body()).contains("would remove:", "dry run: nothing was changed");

        // bound to loopback only: none of this machine's other addresses answers
        List<InetAddress> others = new ArrayList<>();
        for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            for (InetAddress a : Collections.list(nic.getInetAddresses())) {
                if (!a.isLoopbackAddress() && a instanceof Inet4Address) {
                    others.add(a);
                }
            }
        }
        for (InetAddress other : others) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(other, signIn.getPort()), 2_000);
                throw new AssertionError("the viewer answered on " + other);
            }
            catch (ConnectException expected) {
                // refused: nothing listens there
            }
        }
        assertThat(signIn.getHost()).isEqualTo("127.0.0.1");
    }

    @Test
    void forgetTakesEachFormFieldAsAValueNeverAsAnOption() throws Exception {
        URI signIn = URI.create(viewerUrl());
        String base = "http://127.0.0.1:" + signIn.getPort();
        HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
        String setCookie = http.send(HttpRequest.newBuilder(signIn).build(), HttpResponse.BodyHandlers.ofString())
            .headers()
            .firstValue("Set-Cookie")
            .orElseThrow();
        String cookie = setCookie.substring(0, setCookie.indexOf(';'));
        String csrf = http
            .send(HttpRequest.newBuilder(URI.create(base + "/")).header("Cookie", cookie).build(),
                    HttpResponse.BodyHandlers.ofString())
            .body()
            .replaceAll("(?s).*name=\"csrf-token\" content=\"([^\"]+)\".*", "$1");
        int timeline = timelineItems(http, base, cookie);
        assertThat(timeline).isGreaterThan(10);

        // an option in the citation field is no citation, and nothing is previewed
        HttpResponse<String> option = post(http, base, cookie, "/forget/preview",
                "csrf_token=" + csrf + "&citation=--before%3D2100-01-01");
        assertThat(option.statusCode()).isEqualTo(400);
        assertThat(option.body()).isEqualTo("not a citation: --before=2100-01-01");

        // a phrase that starts with -- is a phrase: it takes the one prompt that says it
        String prompt = "--before=2100-01-01 is the flag that purges the old cache";
        String hook = Json.write(Map.of("session_id", "viewer-dash-0001", "cwd", tmp.resolve("shop-api").toString(),
                "hook_event_name", "UserPromptSubmit", "prompt", prompt));
        assertThat(JobsJar.run(home, hook.getBytes(StandardCharsets.UTF_8), "hook").exit()).isZero();
        JobsJar.Result ingest = JobsJar.run(home, new byte[0], "--job=ingest");
        assertThat(ingest.exit()).as(ingest.stderr()).isZero();
        assertThat(mentions(http, base, cookie, "purges the old cache")).isOne();
        String phrase = "csrf_token=" + csrf + "&match=--before%3D2100-01-01";
        HttpResponse<String> preview = post(http, base, cookie, "/forget/preview", phrase);
        assertThat(preview.statusCode()).isEqualTo(200);
        assertThat(preview.body()).contains("everything that mentions the phrase would remove: 1 event, ",
                "dry run: nothing was changed");
        HttpResponse<String> forgot = post(http, base, cookie, "/forget", phrase + "&confirm=yes");
        assertThat(forgot.statusCode()).isEqualTo(200);
        assertThat(forgot.body()).contains("forgot everything that mentions the phrase: 1 event, ");
        assertThat(mentions(http, base, cookie, "purges the old cache")).isZero();
        assertThat(timelineItems(http, base, cookie)).isEqualTo(timeline);
    }

    private static HttpResponse<String> post(HttpClient http, String base, String cookie, String path, String form)
            throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base + path))
            .header("Cookie", cookie)
            .header("Origin", base)
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(form))
            .build(), HttpResponse.BodyHandlers.ofString());
    }

    private static int timelineItems(HttpClient http, String base, String cookie) throws Exception {
        return timeline(http, base, cookie).size();
    }

    private static long mentions(HttpClient http, String base, String cookie, String text) throws Exception {
        return timeline(http, base, cookie).stream()
            .filter(item -> String.valueOf(((Map<?, ?>) item).get("text")).contains(text))
            .count();
    }

    private static List<?> timeline(HttpClient http, String base, String cookie) throws Exception {
        HttpResponse<String> r = http.send(
                HttpRequest.newBuilder(URI.create(base + "/api/timeline")).header("Cookie", cookie).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        return (List<?>) Json.parse(r.body());
    }

    @Test
    void viewerWithoutServeSaysHowToStartItAndExitsBusy() throws Exception {
        JobsJar.Result r = JobsJar.run(tmp.resolve("no-serve-home"), new byte[0], "viewer", "--url");
        assertThat(r.exit()).isEqualTo(3);
        assertThat(r.stdout()).isEmpty();
        assertThat(r.stderr()).contains("java -jar jobs.jar serve");
    }

    private static String viewerUrl() throws Exception {
        JobsJar.Result r = JobsJar.run(home, new byte[0], "viewer", "--url");
        assertThat(r.exit()).as(r.stderr()).isZero();
        assertThat(r.stdout()).matches("http://127\\.0\\.0\\.1:\\d+/\\?t=[A-Za-z0-9_-]+\\n");
        return r.stdout().strip();
    }

    private static int rawStatus(int port, String request) throws IOException {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            OutputStream out = s.getOutputStream();
            out.write(request.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String status = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII))
                .readLine();
            return Integer.parseInt(status.split(" ")[1]);
        }
    }

    private static long number(Map<?, ?> seen, String key) {
        assertThat(seen.get(key)).as(key + " in " + seen).isNotNull();
        return Long.parseLong(((Json.JsonNumber) seen.get(key)).literal());
    }

    private static String tail(Path log) throws IOException {
        if (!Files.exists(log)) {
            return "";
        }
        List<String> lines = Files.readAllLines(log);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }

    private static void awaitWarm() throws Exception {
        ServeClient client = ServeClient.forHome(new CodeMemoryHome(home));
        long deadline = System.currentTimeMillis() + 180_000;
        while (System.currentTimeMillis() < deadline) {
            assertThat(serve.isAlive()).as("serve is running; its log:\n%s", tail(serveLog)).isTrue();
            var ping = client.call(Map.of("op", "ping"), Instant.now().plusSeconds(5));
            if (ping.isPresent() && Boolean.TRUE.equals(ping.get().get("warm"))) {
                return;
            }
            Thread.sleep(250);
        }
        throw new AssertionError("serve not warm in 180 s; its log:\n" + tail(serveLog));
    }

}

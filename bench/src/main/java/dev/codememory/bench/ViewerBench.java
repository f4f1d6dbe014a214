package dev.codememory.bench;

import dev.codememory.jobs.client.ServeClient;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The web viewer's half of {@code bench --query}, on serve once it is warm: signs in as
 * {@code viewer} does, then times every page's first load (the whole HTML, as the server
 * answers it; the page's CSS and script are static files from the jar) and every JSON API
 * answer, first and median of five, as a client on the same machine sees them. The
 * targets: a page under 1 s, an API answer under 200 ms.
 */
final class ViewerBench {

    private static final int REPEATS = 5;

    private final PrintStream out;

    ViewerBench(PrintStream out) {
        this.out = out;
    }

    void run(ServeClient client, QueryBench.Fixture f) throws IOException, InterruptedException {
        Map<String, Object> request = new LinkedHashMap<>();
        request.put("op", "viewer");
        Object url = client.call(request, Instant.now().plusSeconds(10)).map(m -> m.get("url")).orElse(null);
        if (!(url instanceof String signIn)) {
            out.println("  viewer: serve answered no address; skipped");
            return;
        }
        HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
        HttpResponse<String> signedIn = http.send(HttpRequest.newBuilder(URI.create(signIn)).build(),
                HttpResponse.BodyHandlers.ofString());
        String setCookie = signedIn.headers().firstValue("Set-Cookie").orElseThrow();
        String cookie = setCookie.substring(0, setCookie.indexOf(';'));
        String base = signIn.substring(0, signIn.indexOf("/?t="));
        String question = URLEncoder.encode(f.questions().get(0), StandardCharsets.UTF_8);
        String search = get(http, cookie, base + "/search?q=" + question).body();
        Matcher m = Pattern.compile("/memory/(mem:[A-Za-z0-9_-]{6})").matcher(search);
        String citation = m.find() ? m.group(1) : "mem:AAAAAA";
        String memory = get(http, cookie, base + "/memory/" + citation).body();
        Matcher s = Pattern.compile("/session/([^\"]+)\"").matcher(memory);
        String session = s.find() ? s.group(1) : "none";
        List<String> pages = List.of("/", "/search?q=" + question, "/memory/" + citation, "/session/" + session,
                "/tasks", "/context", "/context?prompt=" + question, "/health", "/forget");
        List<String> apis = List.of("/api/timeline", "/api/search?q=" + question, "/api/memory/" + citation,
                "/api/health");
        out.printf("  viewer at %,d memories (first load / median of %d, ms; targets: page < 1000, API < 200):%n",
                f.memories(), REPEATS);
        for (String path : pages) {
            time(http, cookie, base, path, "page");
        }
        for (String path : apis) {
            time(http, cookie, base, path, "API ");
        }
    }

    private void time(HttpClient http, String cookie, String base, String path, String what)
            throws IOException, InterruptedException {
        long[] ms = new long[REPEATS];
        int status = 0;
        int bytes = 0;
        for (int i = 0; i < REPEATS; i++) {
            long start = System.nanoTime();
            HttpResponse<String> r = get(http, cookie, base + path);
            ms[i] = (System.nanoTime() - start) / 1_000_000;
            status = r.statusCode();
            bytes = r.body().length();
        }
        long first = ms[0];
        long[] sorted = ms.clone();
        Arrays.sort(sorted);
        String shown = path.length() > 48 ? path.substring(0, 47) + "…" : path;
        out.printf("    %s %-48s %5d / %4d  (%d, %,d chars)%n", what, shown, first, sorted[REPEATS / 2], status, bytes);
    }

    private static HttpResponse<String> get(HttpClient http, String cookie, String url)
            throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(url)).header("Cookie", cookie).build(),
                HttpResponse.BodyHandlers.ofString());
    }

}

package dev.codememory.jobs.viewer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.config.home.CodeMemoryHome;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The viewer's HTTP side on real sockets, without a store behind it (no pages: what is
 * asked here is answered before any page is drawn, or fails for want of one).
 */
class ViewerServerTests {

    @TempDir
    Path tmp;

    private ViewerAuth auth;

    private ViewerServer server;

    private String cookie;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();

    private final List<Socket> slowClients = new ArrayList<>();

    @BeforeEach
    void start() throws IOException {
        auth = ViewerAuth.forHome(new CodeMemoryHome(tmp));
        server = ViewerServer.start(0, auth, null, null);
        cookie = auth.cookieName() + "=" + auth.exchange(auth.newToken()).orElseThrow();
    }

    @AfterEach
    void stop() throws IOException {
        for (Socket s : slowClients) {
            s.close();
        }
        server.close();
    }

    @Test
    void clientsThatNeverFinishTheirHeadersDoNotHoldUpASignedInRequest() throws Exception {
        int port = URI.create(server.address()).getPort();
        for (int i = 0; i < 12; i++) {
            Socket s = new Socket(InetAddress.getLoopbackAddress(), port);
            slowClients.add(s);
            OutputStream out = s.getOutputStream();
            out.write(("GET / HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nCookie: " + cookie + "\r\n")
                .getBytes(StandardCharsets.US_ASCII));
            out.flush();
        }
        Thread.sleep(300); // the server has taken them all up

        HttpResponse<String> answer = http.send(HttpRequest.newBuilder(URI.create(server.address() + "/nothing-here"))
            .header("Cookie", cookie)
            .timeout(Duration.ofSeconds(3))
            .build(), HttpResponse.BodyHandlers.ofString());

        assertThat(answer.statusCode()).isEqualTo(404);
        assertThat(answer.body()).isEqualTo("no page /nothing-here");
        // and the slow ones are let go once their time to send a request is up
        for (Socket s : slowClients) {
            s.setSoTimeout((ViewerServer.REQUEST_DEADLINE_SECONDS + 10) * 1000);
            assertThat(closedByServer(s.getInputStream())).isTrue();
        }
    }

    @Test
    void anErrorArrivesWithItsStatusAndItsMessage() throws Exception {
        HttpResponse<String> noApi = http.send(
                HttpRequest.newBuilder(URI.create(server.address() + "/api/nothing")).header("Cookie", cookie).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(noApi.statusCode()).isEqualTo(400);
        assertThat(noApi.body()).isEqualTo("no API nothing");

        HttpResponse<String> nothingToForget = http
            .send(HttpRequest.newBuilder(URI.create(server.address() + "/forget/preview"))
                .header("Cookie", cookie)
                .header("Origin", server.address())
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers
                    .ofString("csrf_token=" + auth.csrf(cookie.substring(cookie.indexOf('=') + 1))))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(nothingToForget.statusCode()).isEqualTo(400);
        assertThat(nothingToForget.body()).isEqualTo("say what to forget: a citation, a session or a phrase");

        HttpResponse<String> failed = http.send(
                HttpRequest.newBuilder(URI.create(server.address() + "/tasks")).header("Cookie", cookie).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(failed.statusCode()).isEqualTo(500);
        assertThat(failed.body()).startsWith("failed: ");
    }

    @Test
    void signingOutEndsTheSessionForEveryCopyOfItsCookie() throws Exception {
        String session = cookie.substring(cookie.indexOf('=') + 1);
        HttpResponse<String> out = http.send(HttpRequest.newBuilder(URI.create(server.address() + "/signout"))
            .header("Cookie", cookie)
            .header("Origin", server.address())
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString("csrf_token=" + auth.csrf(session)))
            .build(), HttpResponse.BodyHandlers.ofString());

        assertThat(out.statusCode()).isEqualTo(200);
        assertThat(out.headers().firstValue("Set-Cookie"))
            .hasValue(auth.cookieName() + "=; " + "Path=/; HttpOnly; " + "SameSite=Strict; Max-Age=0");
        assertThat(auth.valid(session)).isFalse();
        HttpResponse<String> copied = http.send(
                HttpRequest.newBuilder(URI.create(server.address() + "/nothing-here")).header("Cookie", cookie).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(copied.statusCode()).isEqualTo(401);
    }

    private static boolean closedByServer(InputStream in) throws IOException {
        try {
            return in.read() == -1;
        }
        catch (SocketTimeoutException e) {
            return false;
        }
        catch (IOException e) {
            return true; // reset
        }
    }

}

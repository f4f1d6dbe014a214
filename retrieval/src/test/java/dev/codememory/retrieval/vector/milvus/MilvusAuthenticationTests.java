package dev.codememory.retrieval.vector.milvus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.read.ListAppender;
import dev.codememory.config.vector.EmbeddingVersion;
import dev.codememory.config.vector.VectorStoreException;
import dev.codememory.retrieval.vector.milvus.FakeMilvusServer.Call;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The Milvus token against a server that checks it ({@link FakeMilvusServer}): Milvus
 * Lite, which the integration tests run against, accepts any token, so it cannot show
 * that the token is sent, nor what a refusal looks like. The token reaches the server as
 * Milvus reads it, on every call; a refused or missing one fails with a message that
 * names Milvus, authentication and the setting, and never holds the token — nor does any
 * log line, ours, the SDK's or its gRPC's, at any level, but for one logger's: the HTTP/2
 * frame logger of the SDK's gRPC client prints every header at DEBUG, the token's among
 * them, so the product pins it at INFO ({@code jobs}' {@code application.properties}),
 * and so do these tests.
 */
class MilvusAuthenticationTests {

    private static final EmbeddingVersion VERSION = new EmbeddingVersion("hash", 3, "none", 64);

    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    /**
     * The SDK's gRPC client's HTTP/2 frame logger, which prints each frame's headers at
     * DEBUG; jobs' {@code application.properties} sets it to INFO.
     */
    static final String FRAME_LOGGER = "io.milvus.shaded.io.grpc.netty.shaded.io.grpc.netty.NettyClientHandler";

    /** The same logger of the fake server's side, which is no part of the product. */
    private static final String SERVER_FRAME_LOGGER = "io.milvus.shaded.io.grpc.netty.shaded.io.grpc.netty.NettyServerHandler";

    private final ListAppender<ILoggingEvent> logged = new ListAppender<>();

    private final List<LogRecord> julLogged = new ArrayList<>();

    private final Handler julHandler = new Handler() {

        @Override
        public synchronized void publish(LogRecord record) {
            julLogged.add(record);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    private Level rootLevel;

    private java.util.logging.Level julLevel;

    @BeforeEach
    void recordLogs() {
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        rootLevel = root.getLevel();
        root.setLevel(Level.ALL);
        logger(FRAME_LOGGER).setLevel(Level.INFO);
        logger(SERVER_FRAME_LOGGER).setLevel(Level.INFO);
        logged.start();
        root.addAppender(logged);
        java.util.logging.Logger grpc = java.util.logging.Logger.getLogger("io.milvus");
        julLevel = grpc.getLevel();
        grpc.setLevel(java.util.logging.Level.ALL);
        grpc.addHandler(julHandler);
    }

    @AfterEach
    void stopRecordingLogs() {
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        root.detachAppender(logged);
        root.setLevel(rootLevel);
        logger(FRAME_LOGGER).setLevel(null);
        logger(SERVER_FRAME_LOGGER).setLevel(null);
        java.util.logging.Logger grpc = java.util.logging.Logger.getLogger("io.milvus");
        grpc.removeHandler(julHandler);
        grpc.setLevel(julLevel);
    }

    @Test
    void theTokenReachesTheServerBase64EncodedOnEveryCall() throws Exception {
        try (FakeMilvusServer milvus = new FakeMilvusServer("alice:s3cret-pass", false)) {
            MilvusClientGateway gateway = MilvusClientGateway
                .open(new MilvusSettings(milvus.uri(), "alice:s3cret-pass", "team"), TIMEOUT, TIMEOUT);
            try {
                assertThat(gateway.hasCollection("code_memory_team_x")).isFalse();
            }
            finally {
                gateway.close();
            }

            String sent = base64("alice:s3cret-pass");
            assertThat(milvus.calls()).containsExactly(new Call("Connect", sent), new Call("ListDatabases", sent),
                    new Call("HasCollection", sent));
        }
        // an API key is sent the same way
        try (FakeMilvusServer milvus = new FakeMilvusServer("0123456789abcdef-api-key", false)) {
            MilvusVectorStore
                .connect(new MilvusSettings(milvus.uri(), "0123456789abcdef-api-key", null), VERSION, TIMEOUT, TIMEOUT)
                .close();

            assertThat(milvus.calls()).containsExactly(new Call("Connect", base64("0123456789abcdef-api-key")));
        }
    }

    @Test
    void aRefusedTokenFailsNamingMilvusAuthenticationAndTheSettingButNeverTheToken() throws Exception {
        try (FakeMilvusServer milvus = new FakeMilvusServer("alice:right-password", false)) {
            VectorStoreException refused = catchThrowableOfType(VectorStoreException.class,
                    () -> MilvusVectorStore.connectTeam(new MilvusSettings(milvus.uri(), "alice:wrong-password", null),
                            VERSION, TIMEOUT, TIMEOUT));

            assertThat(refused).hasMessage("milvus vector store: Milvus at " + milvus.uri()
                    + " refused the token of code-memory.team.milvus.token (authentication failed: check the user"
                    + " and password, or the API key); collection code_memory_team_hash_3_none_64:"
                    + " UNAUTHENTICATED: auth check failure, please check username and password are correct");
            assertThat(milvus.calls()).containsExactly(new Call("Connect", base64("alice:wrong-password")));

            VectorStoreException local = catchThrowableOfType(VectorStoreException.class, () -> MilvusVectorStore
                .connect(new MilvusSettings(milvus.uri(), "alice:wrong-password", null), VERSION, TIMEOUT, TIMEOUT));
            assertThat(local).hasMessageContaining("refused the token of code-memory.milvus.token");
            assertNeverShown("wrong-password", refused, local);
        }
    }

    @Test
    void aServerThatQuotesTheRefusedPasswordDoesNotGetItIntoTheMessage() throws Exception {
        try (FakeMilvusServer milvus = new FakeMilvusServer("alice:right-password", true)) {
            VectorStoreException refused = catchThrowableOfType(VectorStoreException.class, () -> MilvusVectorStore
                .connect(new MilvusSettings(milvus.uri(), "alice:wrong-password", null), VERSION, TIMEOUT, TIMEOUT));

            assertThat(refused).hasMessageEndingWith("(username: alice, password: ***)").hasNoCause();
            assertNeverShown("wrong-password", refused);
        }
    }

    @Test
    void withoutATokenNoAuthorizationIsSentAndAServerThatWantsOneSaysSo() throws Exception {
        try (FakeMilvusServer open = new FakeMilvusServer(null, false)) {
            MilvusVectorStore.connect(MilvusSettings.of(open.uri()), VERSION, TIMEOUT, TIMEOUT).close();

            assertThat(open.calls()).containsExactly(new Call("Connect", null));
        }
        try (FakeMilvusServer guarded = new FakeMilvusServer("alice:right-password", false)) {
            VectorStoreException refused = catchThrowableOfType(VectorStoreException.class,
                    () -> MilvusVectorStore.connect(MilvusSettings.of(guarded.uri()), VERSION, TIMEOUT, TIMEOUT));

            assertThat(refused)
                .hasMessageContaining("Milvus at " + guarded.uri()
                        + " requires authentication and no token is set (code-memory.milvus.token: user:password or an"
                        + " API key)")
                .hasMessageEndingWith("UNAUTHENTICATED: missing authorization in header");
            assertThat(guarded.calls()).containsExactly(new Call("Connect", null));
        }
    }

    @Test
    void theSdksFrameLoggerPrintsTheTokenAtDebugWhichIsWhyItIsPinnedAtInfo() throws Exception {
        logger(FRAME_LOGGER).setLevel(Level.DEBUG);
        try (FakeMilvusServer milvus = new FakeMilvusServer("alice:s3cret-pass", false)) {
            MilvusVectorStore
                .connect(new MilvusSettings(milvus.uri(), "alice:s3cret-pass", null), VERSION, TIMEOUT, TIMEOUT)
                .close();
        }

        assertThat(logged()).filteredOn(e -> e.getLoggerName().equals(FRAME_LOGGER))
            .anyMatch(e -> e.getFormattedMessage().contains("authorization: " + base64("alice:s3cret-pass")));
    }

    private static Logger logger(String name) {
        return (Logger) LoggerFactory.getLogger(name);
    }

    /** The events recorded so far (gRPC's threads may still be adding). */
    private List<ILoggingEvent> logged() {
        synchronized (logged) {
            return List.copyOf(logged.list);
        }
    }

    private List<LogRecord> julLogged() {
        synchronized (julHandler) {
            return List.copyOf(julLogged);
        }
    }

    /**
     * Neither the password nor the token's base64 form is in these exceptions (message,
     * causes, stack) or in any log line recorded.
     */
    private void assertNeverShown(String password, Exception... thrown) {
        String token = "alice:" + password;
        List<String> texts = new ArrayList<>();
        for (Exception e : thrown) {
            for (Throwable t = e; t != null; t = t.getCause()) {
                texts.add(String.valueOf(t.getMessage()));
            }
        }
        for (ILoggingEvent event : logged()) {
            texts.add(event.getFormattedMessage());
            if (event.getThrowableProxy() != null) {
                texts.add(ThrowableProxyUtil.asString(event.getThrowableProxy()));
            }
        }
        for (LogRecord record : julLogged()) {
            texts.add(String.valueOf(record.getMessage()));
            if (record.getThrown() != null) {
                texts.add(String.valueOf(record.getThrown()));
            }
        }
        assertThat(texts).isNotEmpty().noneMatch(t -> t.contains(password) || t.contains(base64(token)));
    }

    private static String base64(String token) {
        return Base64.getEncoder().encodeToString(token.getBytes(StandardCharsets.UTF_8));
    }

}

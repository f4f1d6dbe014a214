package dev.codememory.jobs.servers;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.abort;

/**
 * The servers some integration tests need, named by environment variables that
 * {@code .ci/run} sets after starting them. Without one, the calling test is skipped,
 * saying why — except on CI ({@code CI=true}), where it fails: there the server must be
 * there.
 */
public final class TestServers {

    public static final String MILVUS_URI = "MILVUS_URI";

    public static final String POSTGRES_URL = "CODE_MEMORY_TEST_POSTGRES_URL";

    private TestServers() {
    }

    /** A Milvus server, e.g. {@code http://127.0.0.1:19530}. */
    public static String milvusUri() {
        return required(MILVUS_URI,
                "a Milvus server: Milvus Lite (pip install \"pymilvus[milvus-lite]\"; milvus-lite "
                        + "server --data-dir DIR --host 127.0.0.1 --port 19530, as .ci/run does) or "
                        + "docker compose -f docker-compose.milvus.yml up -d; then MILVUS_URI=http://127.0.0.1:19530");
    }

    /**
     * A JDBC URL of a PostgreSQL database the tests may create schemas in, with user and
     * password as parameters.
     */
    public static String postgresUrl() {
        return required(POSTGRES_URL, "a PostgreSQL database: " + POSTGRES_URL
                + "=jdbc:postgresql://127.0.0.1:5432/DB?user=U&password=P (.ci/run starts one)");
    }

    /**
     * Whether the variable is set; for set-up shared by a class, whose tests then ask for
     * the server themselves (an abort in {@code @BeforeAll} is reported as no test at
     * all, not as skipped ones).
     */
    public static boolean available(String variable) {
        String value = System.getenv(variable);
        return value != null && !value.isBlank();
    }

    private static String required(String variable, String what) {
        String value = System.getenv(variable);
        if (value == null || value.isBlank()) {
            String reason = variable + " is not set: this test needs " + what;
            if ("true".equals(System.getenv("CI"))) {
                fail(reason);
            }
            abort(reason);
        }
        return value.strip();
    }

}

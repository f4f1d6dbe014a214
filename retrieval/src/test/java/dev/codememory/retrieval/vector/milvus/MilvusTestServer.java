package dev.codememory.retrieval.vector.milvus;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.abort;

/**
 * The Milvus server of the integration tests, {@code MILVUS_URI}. Without it the calling
 * test is skipped, saying why — except on CI ({@code CI=true}), where it fails: there the
 * server must be there ({@code .ci/run} starts Milvus Lite).
 */
final class MilvusTestServer {

    private MilvusTestServer() {
    }

    static String uri() {
        String uri = System.getenv("MILVUS_URI");
        if (uri == null || uri.isBlank()) {
            String reason = "MILVUS_URI is not set: this test needs a Milvus server, e.g. Milvus Lite "
                    + "(pip install \"pymilvus[milvus-lite]\"; milvus-lite server --data-dir DIR --host 127.0.0.1 "
                    + "--port 19530) or docker compose -f docker-compose.milvus.yml up -d";
            if ("true".equals(System.getenv("CI"))) {
                fail(reason);
            }
            abort(reason);
        }
        return uri.strip();
    }

}

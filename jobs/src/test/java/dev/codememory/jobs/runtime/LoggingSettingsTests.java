package dev.codememory.jobs.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class LoggingSettingsTests {

    /**
     * The Milvus SDK's gRPC client logs every HTTP/2 header at DEBUG, the
     * {@code authorization} header with the Milvus token among them (shown in the writers
     * module's {@code MilvusAuthenticationTests}): that logger stays at INFO whatever
     * level a user gives {@code root} or {@code io.milvus}.
     */
    @Test
    void theMilvusClientsFrameLoggerNeverLogsHeaders() throws Exception {
        Properties settings = new Properties();
        try (InputStream in = getClass().getResourceAsStream("/application.properties")) {
            settings.load(in);
        }

        assertThat(settings
            .getProperty("logging.level.io.milvus.shaded.io.grpc.netty.shaded.io.grpc.netty.NettyClientHandler"))
            .isEqualTo("INFO");
    }

}

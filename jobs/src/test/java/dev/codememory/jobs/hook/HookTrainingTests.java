package dev.codememory.jobs.hook;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.capture.spool.SpoolLineBuilder;
import dev.codememory.config.json.Json;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HookTrainingTests {

    @Test
    void toolOutputEventIsAHookObjectWithAHundredKilobytesToRedact() {
        String event = HookTraining.toolOutputEvent(100 * 1024);

        Map<?, ?> parsed = (Map<?, ?>) Json.parse(event);
        String stdout = (String) ((Map<?, ?>) parsed.get("tool_response")).get("stdout");
        assertThat(parsed.get("hook_event_name")).isEqualTo("PostToolUse");
        assertThat(stdout.length()).isBetween(100 * 1024, 100 * 1024 + 200);

        String line = SpoolLineBuilder.defaults()
            .build(event.getBytes(StandardCharsets.UTF_8), Instant.EPOCH, "hook", null)
            .json();
        assertThat(line).doesNotContain("Sup3rS3cret", "zebra-fence-5521", "sk-proj-AbC")
            .contains("postgres://app:[REDACTED]@db.internal", "password: ${DB_PASSWORD}",
                    "def verify(self, secret: str)", "sha512-z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg");
    }

}

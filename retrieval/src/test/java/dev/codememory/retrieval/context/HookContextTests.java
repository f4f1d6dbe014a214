package dev.codememory.retrieval.context;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.config.json.Json;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HookContextTests {

    @TempDir
    Path tmp;

    @Test
    void outputIsClaudeCodesAdditionalContextShapeWithTheTextEscaped() {
        String text = "Memories:\n- \"quoted\" \\ tab\t [mem:a7Bc3x]";

        Map<?, ?> doc = (Map<?, ?>) Json.parse(HookContext.output("UserPromptSubmit", text));

        assertThat(new ArrayList<Object>(doc.keySet())).containsExactly("hookSpecificOutput");
        Map<?, ?> specific = (Map<?, ?>) doc.get("hookSpecificOutput");
        assertThat(new ArrayList<Object>(specific.keySet())).containsExactly("hookEventName", "additionalContext");
        assertThat(specific.get("hookEventName")).isEqualTo("UserPromptSubmit");
        assertThat(specific.get("additionalContext")).isEqualTo(text);
    }

    @Test
    void otherEventsAndAHomeWithoutADatabaseGetNoAnswerAndNoLog() {
        CodeMemoryHome home = new CodeMemoryHome(tmp);
        List<String> logged = new ArrayList<>();
        String prompt = "{\"spool\":1,\"event\":{\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":\"hi\","
                + "\"cwd\":\"/x\",\"session_id\":\"s\"}}";
        String stop = "{\"spool\":1,\"event\":{\"hook_event_name\":\"Stop\",\"cwd\":\"/x\",\"session_id\":\"s\"}}";

        assertThat(HookContext.respond(home, prompt, Instant.now(), (w, e) -> logged.add(w), logged::add)).isNull();
        assertThat(HookContext.respond(home, stop, Instant.now(), (w, e) -> logged.add(w), logged::add)).isNull();
        assertThat(HookContext.respond(home, "not json", Instant.now(), (w, e) -> logged.add(w), logged::add)).isNull();
        assertThat(logged).isEmpty();
    }

}

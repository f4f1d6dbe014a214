package dev.codememory.writers.graduation;

import dev.codememory.config.graduate.Quote;
import dev.codememory.config.graduate.TaskFields;
import java.util.List;
import tools.jackson.databind.json.JsonMapper;

/**
 * JSON forms of quotes and task fields, shared by the writers (the readers parse the same
 * shapes).
 */
public final class GraduationJson {

    public static final JsonMapper MAPPER = JsonMapper.builder().build();

    private GraduationJson() {
    }

    public static String quotes(List<Quote> quotes) {
        return MAPPER.writeValueAsString(quotes);
    }

    public static String task(TaskFields task) {
        return task == null ? null : MAPPER.writeValueAsString(task);
    }

}

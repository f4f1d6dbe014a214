package dev.codememory.config.graduate;

import java.util.List;
import java.util.Objects;

/**
 * What a task candidate says about a task.
 *
 * @param status   pending, in_progress, blocked, done or cancelled
 * @param priority low, medium, high or critical; null when not said
 * @param blockers the blockers as written (URLs, issue keys, task ids or free text); empty unless blocked
 */
public record TaskFields(String status, String priority, List<String> blockers) {

    public TaskFields {
        Objects.requireNonNull(status, "status");
        blockers = List.copyOf(blockers);
    }
}

package dev.codememory.processors.task;

import static dev.codememory.processors.task.TaskTransitions.Rule.ALLOW;
import static dev.codememory.processors.task.TaskTransitions.Rule.REFUSE;
import static dev.codememory.processors.task.TaskTransitions.Rule.REOPEN;
import static dev.codememory.processors.task.TaskTransitions.Rule.SAME;
import static dev.codememory.processors.task.TaskTransitions.Rule.VIA_IN_PROGRESS;

import java.util.Objects;

/**
 * Which status changes a task may make. Rows are the current status, columns the
 * requested one:
 *
 * <pre>
 *   from \ to     PENDING   IN_PROGRESS  BLOCKED   DONE              CANCELLED
 *   PENDING       same      allow        allow     → IN_PROGRESS (1) allow
 *   IN_PROGRESS   allow     same         allow     allow             allow
 *   BLOCKED       allow     allow        same      allow             allow
 *   DONE          reopen    reopen       refuse    same              refuse
 *   CANCELLED     reopen    reopen       refuse    refuse            same
 * </pre>
 *
 * <ul>
 * <li><b>same</b>: nothing happens and no event is written.</li>
 * <li><b>allow</b>, <b>reopen</b>: the status changes. Reopen is the only way out of DONE
 * and CANCELLED, and it goes to PENDING or IN_PROGRESS, never straight to BLOCKED or
 * DONE.</li>
 * <li>(1) a task is never seen to jump from PENDING to DONE: the request is corrected to
 * IN_PROGRESS and a {@link TaskTransitionRejected} records the correction. A new task is
 * treated as coming from PENDING, so "created done" is corrected the same way.</li>
 * <li><b>refuse</b>: the status stays and a {@link TaskTransitionRejected} records the
 * request.</li>
 * </ul>
 * The blocker side of the invariants is kept by {@link TaskResolver} and
 * {@link TaskProjector}: entering BLOCKED needs at least one blocker (the "unknown
 * blocker" placeholder when none is named), and every status other than BLOCKED drops the
 * blockers, DONE included.
 */
public final class TaskTransitions {

    enum Rule {

        SAME, ALLOW, REOPEN, VIA_IN_PROGRESS, REFUSE

    }

    private static final Rule[][] TABLE = {
            // PENDING IN_PROGRESS BLOCKED DONE CANCELLED
            /* PENDING */ { SAME, ALLOW, ALLOW, VIA_IN_PROGRESS, ALLOW },
            /* IN_PROGRESS */ { ALLOW, SAME, ALLOW, ALLOW, ALLOW }, /* BLOCKED */ { ALLOW, ALLOW, SAME, ALLOW, ALLOW },
            /* DONE */ { REOPEN, REOPEN, REFUSE, SAME, REFUSE },
            /* CANCELLED */ { REOPEN, REOPEN, REFUSE, REFUSE, SAME }, };

    /** What became of a status request. */
    public enum Verdict {

        /** The task already has the requested status: no event. */
        UNCHANGED,
        /** The task goes to the requested status. */
        ALLOWED,
        /**
         * The task goes to another status than requested, and the rejection is recorded.
         */
        CORRECTED,
        /** The task keeps its status, and the rejection is recorded. */
        REFUSED

    }

    /**
     * The outcome of one request.
     *
     * @param from the status before ({@link TaskStatus#PENDING} for a new task)
     * @param to the status after
     * @param reason why the request was corrected or refused; empty when it was not
     */
    public record Transition(TaskStatus from, TaskStatus requested, TaskStatus to, Verdict verdict, String reason) {

        public Transition {
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(requested, "requested");
            Objects.requireNonNull(to, "to");
            Objects.requireNonNull(verdict, "verdict");
            Objects.requireNonNull(reason, "reason");
        }

        /** Whether a {@link TaskTransitionRejected} is due. */
        public boolean rejected() {
            return verdict == Verdict.CORRECTED || verdict == Verdict.REFUSED;
        }

        public boolean changesStatus() {
            return from != to;
        }
    }

    private TaskTransitions() {
    }

    /** A status request for an existing task. */
    public static Transition request(TaskStatus from, TaskStatus requested) {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(requested, "requested");
        return switch (rule(from, requested)) {
            case SAME -> new Transition(from, requested, from, Verdict.UNCHANGED, "");
            case ALLOW, REOPEN -> new Transition(from, requested, requested, Verdict.ALLOWED, "");
            case VIA_IN_PROGRESS -> new Transition(from, requested, TaskStatus.IN_PROGRESS, Verdict.CORRECTED,
                    "a pending task goes through in_progress before done");
            case REFUSE -> new Transition(from, requested, from, Verdict.REFUSED, "a " + from.key()
                    + " task is only reopened to pending or in_progress, not moved to " + requested.key());
        };
    }

    /**
     * The status a new task starts with when the request is {@code requested}; a new task
     * comes from PENDING.
     */
    public static Transition initial(TaskStatus requested) {
        Transition t = request(TaskStatus.PENDING, requested);
        if (t.verdict() == Verdict.CORRECTED) {
            return new Transition(t.from(), requested, t.to(), Verdict.CORRECTED, "a new task may not start as done");
        }
        return t;
    }

    /**
     * A status Claude Code's own task tracking recorded (a TodoWrite list, a task tool):
     * the list is the truth, so the task goes where it says, including pending → done,
     * cancelled → done and done → pending. Blocked is the one exception, since the list
     * never says what blocks: that request follows {@link #request}.
     */
    public static Transition recorded(TaskStatus from, TaskStatus requested) {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(requested, "requested");
        if (requested == TaskStatus.BLOCKED) {
            return request(from, requested);
        }
        return from == requested ? new Transition(from, requested, from, Verdict.UNCHANGED, "")
                : new Transition(from, requested, requested, Verdict.ALLOWED, "");
    }

    /**
     * Whether the log may hold a {@link TaskStatusChanged} from {@code from} to
     * {@code to}.
     */
    public static boolean allowed(TaskStatus from, TaskStatus to) {
        Rule rule = rule(from, to);
        return rule == ALLOW || rule == REOPEN;
    }

    private static Rule rule(TaskStatus from, TaskStatus to) {
        return TABLE[from.ordinal()][to.ordinal()];
    }

}

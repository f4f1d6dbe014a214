package dev.codememory.config.distill;

/**
 * The model did not answer a session's request; the session is asked again at a later
 * run. Carries what the request cost when the model said (else the caller counts its
 * worst case).
 */
public class DistillModelException extends RuntimeException {

    /** Why the model did not answer. */
    public enum Reason {

        /** no connection, the CLI missing or failing */
        UNREACHABLE,
        /** 429 or overloaded: asked to come back later */
        RATE_LIMITED,
        /** no answer within the timeout */
        TIMEOUT,
        /** an answer that is not the JSON shape asked for */
        MALFORMED

    }

    private final Reason reason;

    private final DistillAnswer usage;

    public DistillModelException(Reason reason, String message, DistillAnswer usage, Throwable cause) {
        super(message, cause);
        this.reason = reason;
        this.usage = usage;
    }

    public DistillModelException(Reason reason, String message) {
        this(reason, message, null, null);
    }

    public Reason reason() {
        return reason;
    }

    /** The answer's usage when the model reported it, else null. */
    public DistillAnswer usage() {
        return usage;
    }

}

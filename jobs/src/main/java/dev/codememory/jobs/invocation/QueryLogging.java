package dev.codememory.jobs.invocation;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.core.ConsoleAppender;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The query commands run without Spring, whose logging set-up would otherwise apply:
 * logback's fallback prints DEBUG on stdout, which is the command's output. This sends
 * WARN and above to stderr instead.
 */
public final class QueryLogging {

    private QueryLogging() {
    }

    /**
     * The hook's set-up: nothing may reach stdout (Claude Code reads it as context) and
     * stderr is not ours to fill either, so library logging is switched off; the hook
     * reports its own failures to {@code logs/hook.log}.
     */
    public static void off() {
        if (LoggerFactory.getILoggerFactory() instanceof LoggerContext context) {
            context.reset();
            context.getLogger(Logger.ROOT_LOGGER_NAME).setLevel(Level.OFF);
        }
    }

    /**
     * WARN and above on stderr, for a command (and the query bench) whose stdout is its
     * output.
     */
    public static void toStderr() {
        if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
            return;
        }
        context.reset();
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern("%level %logger{20} - %msg%n");
        encoder.start();
        ConsoleAppender<ch.qos.logback.classic.spi.ILoggingEvent> appender = new ConsoleAppender<>();
        appender.setContext(context);
        appender.setTarget("System.err");
        appender.setEncoder(encoder);
        appender.start();
        ch.qos.logback.classic.Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.WARN);
        root.addAppender(appender);
        // DJL reports the missing GPU at WARN on every start; that is expected on a
        // laptop
        context.getLogger("ai.djl").setLevel(Level.ERROR);
    }

}

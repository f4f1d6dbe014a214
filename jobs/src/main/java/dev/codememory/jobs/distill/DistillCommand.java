package dev.codememory.jobs.distill;

import dev.codememory.config.distill.DistillRequest;
import dev.codememory.config.distill.DistillSession;
import dev.codememory.jobs.invocation.Invocation;
import dev.codememory.jobs.report.StoreReader;
import dev.codememory.readers.distill.DistillQueries;
import java.io.PrintStream;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code distill --dry-run SESSION}: prints exactly what the distill step would send to
 * the model for a session — the instructions and the session's texts after redaction,
 * with the estimated size — and sends nothing. The caps are the defaults unless given
 * here.
 */
@Command(name = "distill", header = "what the opt-in distill step would send to your model for a session",
        mixinStandardHelpOptions = true,
        description = "Prints exactly what the distill step (code-memory.distill.enabled=true) would send to the model "
                + "for SESSION, and its estimated size in tokens. Nothing is sent.",
        footer = { "", "Exit codes: 0 printed, 1 failed, 2 usage or no such session, 3 a job holds the database." })
public final class DistillCommand implements Callable<Integer> {

    @Option(names = "--dry-run", required = true, description = "print the request instead of sending it")
    boolean dryRun;

    @Option(names = "--session-input-tokens", description = "the cap on what a request sends (default 12000)")
    Long sessionInputTokens;

    @Option(names = "--max-output-tokens", description = "the cap on the answer (default 2000)")
    Integer maxOutputTokens;

    @Option(names = "--min-session-tokens", description = "smaller sessions are not sent (default 400)")
    Long minSessionTokens;

    @Parameters(index = "0", paramLabel = "SESSION", description = "the session id")
    String sessionId;

    private final PrintStream out;

    private final PrintStream err;

    private final Invocation invocation;

    public DistillCommand(PrintStream out, PrintStream err, Invocation invocation) {
        this.out = out;
        this.err = err;
        this.invocation = invocation;
    }

    @Override
    public Integer call() {
        DistillProperties d = DistillProperties.defaults();
        DistillProperties settings = new DistillProperties(false, null, null, null, null, null, null,
                sessionInputTokens != null ? sessionInputTokens : d.sessionInputTokens(),
                maxOutputTokens != null ? maxOutputTokens : d.maxOutputTokens(),
                minSessionTokens != null ? minSessionTokens : d.minSessionTokens(), null, null, null);
        return StoreReader.read(invocation, out, err, "no memory yet: nothing to distill", c -> {
            DistillSession session = DistillQueries.session(c, sessionId);
            if (session == null) {
                err.println("no session " + sessionId);
                return 2;
            }
            DistillRequest request = DistillStepsConfiguration.prompt(settings).build(session);
            if (request == null) {
                out.println("session " + sessionId + " is too small to be worth a request (under "
                        + settings.minSessionTokens() + " estimated tokens, or no prompt): nothing would be sent");
                return 0;
            }
            out.println("would send ~" + request.estimatedInputTokens() + " input tokens; answer capped at "
                    + request.maxOutputTokens() + " tokens; worst case " + request.worstCaseTokens() + " tokens");
            out.println("--- system ---");
            out.println(request.system());
            out.println("--- user ---");
            out.print(request.user());
            return 0;
        });
    }

}

package dev.codememory.jobs.viewer;

import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.jobs.client.ServeClient;
import dev.codememory.jobs.command.ExitCode;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code viewer [--open] [--url]}: the address of the web viewer {@code serve} runs, with
 * a one-time sign-in token (asked for over serve's owner-only socket, so only the home's
 * owner gets one). Without serve it says how to start it and exits 3.
 */
@Command(name = "viewer", header = "the web viewer's address (served by serve on 127.0.0.1)",
        mixinStandardHelpOptions = true,
        description = {
                "Prints the address of the web viewer that serve runs on 127.0.0.1: timeline, sessions, search, "
                        + "memories with their evidence, tasks, context preview, health, forget.",
                "The address carries a one-time sign-in token (valid 5 minutes): opening it signs this browser in "
                        + "with a cookie for 12 hours at most, ending after an idle hour and whenever serve stops; "
                        + "run viewer again for another browser or a new sign-in." },
        footer = { "", "Exit codes: 0 done, 2 bad usage, 3 serve is not running (or runs without its viewer)." })
public final class ViewerCommand implements Callable<Integer> {

    @Option(names = "--open", description = "also open the address in the default browser")
    boolean open;

    @Option(names = "--url", description = "print only the address, on one line (for scripts)")
    boolean url;

    private final PrintStream out;

    private final PrintStream err;

    private final CodeMemoryHome home;

    public ViewerCommand(PrintStream out, PrintStream err) {
        this(out, err, null);
    }

    ViewerCommand(PrintStream out, PrintStream err, CodeMemoryHome home) {
        this.out = out;
        this.err = err;
        this.home = home;
    }

    @Override
    public Integer call() {
        CodeMemoryHome h = home != null ? home : CodeMemoryHome.resolve();
        Map<String, Object> request = new LinkedHashMap<>();
        request.put("op", "viewer");
        Optional<Map<?, ?>> answer = ServeClient.forHome(h).call(request, Instant.now().plusSeconds(10));
        if (answer.isEmpty()) {
            err.println("the viewer is part of serve, which is not running for " + h.root()
                    + ". Start it with: java -jar jobs.jar serve (or install it: java -jar jobs.jar install)");
            return ExitCode.BUSY;
        }
        if (!(answer.get().get("url") instanceof String address)) {
            err.println("serve is running without its viewer (code-memory.viewer.enabled=false, or its port was taken: "
                    + "see " + h.logs().resolve("jobs.log") + ")");
            return ExitCode.BUSY;
        }
        if (url) {
            out.println(address);
        }
        else {
            out.println("code-memory viewer: " + address);
            out.println("(a one-time sign-in address, valid 5 minutes; run `viewer` again for another browser)");
        }
        if (open && !browse(address)) {
            err.println("could not open a browser here: open the address above");
        }
        return ExitCode.OK;
    }

    /** Opens the address with the platform's opener; false when there is none. */
    static boolean browse(String address) {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        List<String> command = os.contains("mac") ? List.of("open", address) : os.contains("win")
                ? List.of("rundll32", "url.dll,FileProtocolHandler", address) : List.of("xdg-open", address);
        try {
            new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
            return true;
        }
        catch (IOException e) {
            return false;
        }
    }

}

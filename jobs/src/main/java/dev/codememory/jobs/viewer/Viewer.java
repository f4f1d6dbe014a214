package dev.codememory.jobs.viewer;

import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.jobs.forget.ForgetService;
import dev.codememory.jobs.serve.ResidentQueries;
import dev.codememory.jobs.serve.ServeRequests;
import dev.codememory.jobs.serve.ServeSurface;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.batch.core.repository.JobRepository;

/**
 * The web viewer of a home, served by {@code serve} beside its socket: started once serve
 * holds the database, stopped before it lets go. {@code viewer} on the command line asks
 * serve (over its owner-only socket) for a one-time sign-in address.
 */
public class Viewer implements ServeSurface {

    private static final Logger log = LoggerFactory.getLogger(Viewer.class);

    private final CodeMemoryHome home;

    private final ResidentQueries resident;

    private final ServeRequests requests;

    private final JobRepository jobs;

    private final boolean enabled;

    private final int port;

    private ViewerServer server;

    /**
     * @param enabled {@code code-memory.viewer.enabled}
     * @param port {@code code-memory.viewer.port}: 0 (the default) lets the system pick a
     * free loopback port each time serve starts
     */
    public Viewer(CodeMemoryHome home, ResidentQueries resident, ServeRequests requests, JobRepository jobs,
            boolean enabled, int port) {
        this.home = home;
        this.resident = resident;
        this.requests = requests;
        this.jobs = jobs;
        this.enabled = enabled;
        this.port = port;
    }

    /**
     * Starts answering on 127.0.0.1; a port already taken is logged and serve goes on
     * without its viewer (the hook and the commands matter more).
     */
    @Override
    public synchronized void start() {
        if (!enabled || server != null) {
            return;
        }
        try {
            ViewerPages pages = new ViewerPages(resident);
            server = ViewerServer.start(port, ViewerAuth.forHome(home), pages,
                    new ViewerAdminPages(pages, resident, new ForgetService(requests.invocation(), false), home, jobs));
            requests.viewer(server::signIn);
            log.info("viewer on {} (java -jar jobs.jar viewer prints a sign-in address)", server.address());
        }
        catch (IOException e) {
            log.warn("viewer not started on 127.0.0.1:{}: {} (code-memory.viewer.port)", port, e.getMessage());
        }
    }

    @Override
    public synchronized void stop() {
        if (server != null) {
            server.close();
            server = null;
        }
    }

}

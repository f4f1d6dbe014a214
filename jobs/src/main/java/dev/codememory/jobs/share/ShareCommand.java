package dev.codememory.jobs.share;

import dev.codememory.config.db.DatabaseException;
import dev.codememory.config.db.DatabaseLockedException;
import dev.codememory.config.db.Sql;
import dev.codememory.config.graduate.Citation;
import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.config.text.TextCuts;
import dev.codememory.jobs.command.ExitCode;
import dev.codememory.jobs.invocation.Invocation;
import dev.codememory.jobs.runtime.JobDatabase;
import dev.codememory.jobs.runtime.ProcessLock;
import dev.codememory.retrieval.citation.CitationQueries;
import dev.codememory.retrieval.citation.CitedMemory;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.springframework.context.ApplicationContext;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * {@code share mem:xxxxxx [--undo] | --list}: marks a preference for the team. With team
 * memory on, decisions, facts, work, fixes and topics are published as they are; a
 * preference is one person's way of working until they say it is the team's, so only the
 * marked ones are ({@code team_marks}). {@code --undo} removes the mark, and the next
 * publish withdraws the preference from the team store. It holds the job lock like
 * {@code forget}.
 */
@Command(name = "share", header = "mark a preference for the team (team memory publishes only marked preferences)",
        mixinStandardHelpOptions = true, sortOptions = false,
        description = { "Marks a preference for the team store: with team memory on (code-memory.team.*), "
                + "decisions, facts, work, fixes and topics are published as they are, a preference only once it "
                + "is marked here.", "--undo removes the mark; the next publish withdraws it from the team store." },
        footer = { "", "Exit codes: 0 done, 1 unknown citation or not a preference, 2 bad usage, "
                + "3 a job or another process holds the database." })
public final class ShareCommand implements Callable<Integer> {

    /** A preference's title is cut to this many characters in the list. */
    static final int TITLE_CHARS = 100;

    @Parameters(paramLabel = "mem:xxxxxx", arity = "0..1", description = "the preference to mark (its citation)")
    String citation;

    @Option(names = "--undo", description = "remove the mark: the next publish withdraws it")
    boolean undo;

    @Option(names = "--list", description = "list the preferences, marked or not")
    boolean list;

    @Spec
    CommandSpec spec;

    private final PrintStream out;

    private final PrintStream err;

    private final Invocation invocation;

    public ShareCommand(PrintStream out, PrintStream err) {
        this(out, err, Invocation.local());
    }

    /** The command for {@code invocation}: in this process, or in serve for a caller. */
    public ShareCommand(PrintStream out, PrintStream err, Invocation invocation) {
        this.out = out;
        this.err = err;
        this.invocation = invocation;
    }

    @Override
    public Integer call() {
        if ((citation == null) == !list || (list && undo)) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "share needs mem:xxxxxx (with --undo to unmark it) or --list");
        }
        if (citation != null && CitationQueries.code(citation).isEmpty()) {
            throw new CommandLine.ParameterException(spec.commandLine(), "not a citation: " + citation);
        }
        CodeMemoryHome home = invocation.home();
        if (!home.database().toFile().exists()) {
            out.println(list ? "no preference yet" : "unknown citation: " + citation);
            return list ? 0 : ExitCode.FAILED;
        }
        return invocation.withJobs(false, this::run);
    }

    private int run(ApplicationContext context) {
        CodeMemoryHome home = context.getBean(CodeMemoryHome.class);
        JobDatabase database = context.getBean(JobDatabase.class);
        try (ProcessLock ignored = ProcessLock.acquire(home.jobLock())) {
            database.open();
            try (Connection c = database.connection()) {
                return list ? list(c) : mark(c);
            }
            finally {
                database.close();
                home.restrictPermissions();
            }
        }
        catch (DatabaseLockedException | ProcessLock.JobsBusyException e) {
            err.println("share: " + e.getMessage());
            return ExitCode.BUSY;
        }
        catch (DatabaseException | SQLException e) {
            err.println("share failed: " + e.getMessage());
            return ExitCode.FAILED;
        }
    }

    private int mark(Connection c) throws SQLException {
        Optional<CitedMemory> memory = CitationQueries.memory(c, citation);
        if (memory.isEmpty() || !"verified".equals(memory.get().stage())) {
            err.println("unknown citation: " + citation);
            return ExitCode.FAILED;
        }
        if (!"preference".equals(memory.get().kind())) {
            err.println(citation + " is a " + memory.get().kind()
                    + ": only preferences wait for a mark; the team kinds (code-memory.team.kinds) are published"
                    + " as they are");
            return ExitCode.FAILED;
        }
        String id = memory.get().memoryId();
        if (undo) {
            out.println(Sql.update(c, "DELETE FROM team_marks WHERE memory_id = ?", id) == 0
                    ? citation + " was not marked for the team"
                    : "unmarked " + citation + ": the next publish withdraws it from the team store");
            return 0;
        }
        out.println(Sql.update(c,
                "INSERT INTO team_marks (memory_id, marked_at) VALUES (?, ?) ON CONFLICT (memory_id) DO NOTHING", id,
                Timestamp.from(Instant.now())) == 0 ? citation + " is marked for the team already"
                        : "marked " + citation + " for the team: the next publish shares it");
        return 0;
    }

    private int list(Connection c) throws SQLException {
        int[] n = { 0 };
        Sql.each(c, """
                SELECT ci.citation, m.memory_id IS NOT NULL, e.project, e.title
                FROM entries e JOIN citations ci ON ci.memory_id = e.entry_id
                LEFT JOIN team_marks m ON m.memory_id = e.entry_id
                WHERE e.entry_type = 'preference' AND e.stage = 'verified' AND e.status = 'active'
                ORDER BY e.project, e.created_ts DESC, e.entry_id""", rs -> {
            n[0]++;
            out.printf("[%s%s] %-10s %s  %s%n", Citation.PREFIX, rs.getString(1),
                    rs.getBoolean(2) ? "team" : "personal", rs.getString(3),
                    TextCuts.shorten(TextCuts.firstLine(rs.getString(4)), TITLE_CHARS));
        });
        if (n[0] == 0) {
            out.println("no preference yet");
        }
        return 0;
    }

}

package dev.codememory.jobs.report;

import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.config.json.Json;
import dev.codememory.jobs.invocation.Invocation;
import dev.codememory.readers.report.ReportQueries;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code export [--format jsonl|markdown]}: a project's verified memories (active and
 * superseded), oldest first, with their citations and the quotes they rest on — JSON
 * lines for tools, Markdown for people.
 */
@Command(name = "export", header = "a project's memories as JSON lines or Markdown", mixinStandardHelpOptions = true,
        sortOptions = false,
        description = "Writes a project's verified memories with their citations and quotes: JSON lines (one memory "
                + "per line) or Markdown grouped by kind.",
        footer = { "", "Exit codes: 0 written, 1 failed, 2 bad usage, 3 a job holds the database." })
public final class ExportCommand implements Callable<Integer> {

    /** The order kinds appear in, in Markdown. */
    private static final List<String> KINDS = List.of("decision", "preference", "fact", "insight", "task", "topic",
            "summary", "exchange", "observation");

    enum Format {

        jsonl, markdown

    }

    @Option(names = "--format", paramLabel = "FORMAT", description = "jsonl or markdown (default: ${DEFAULT-VALUE})")
    Format format = Format.jsonl;

    @Option(names = "--project", paramLabel = "DIR", description = "the project (default: the current directory's)")
    String project;

    @Option(names = "--all-projects", description = "every project")
    boolean allProjects;

    @Option(names = { "--output", "-o" }, paramLabel = "FILE",
            description = "write to FILE (owner-only) instead of " + "stdout")
    Path output;

    private final PrintStream out;

    private final PrintStream err;

    private final Invocation invocation;

    public ExportCommand(PrintStream out, PrintStream err) {
        this(out, err, Invocation.local());
    }

    /** The command for {@code invocation}: in this process, or in serve for a caller. */
    public ExportCommand(PrintStream out, PrintStream err, Invocation invocation) {
        this.out = out;
        this.err = err;
        this.invocation = invocation;
    }

    @Override
    public Integer call() {
        String wanted = allProjects ? null : StoreReader.project(invocation, project);
        return StoreReader.read(invocation, err, err, "no memory yet: nothing to export", c -> {
            List<ReportQueries.Memory> memories = ReportQueries.memories(c, wanted);
            String text = format == Format.jsonl ? jsonl(memories) : markdown(memories, wanted);
            try {
                if (output == null) {
                    out.print(text);
                    out.flush();
                }
                else {
                    Path file = invocation.resolve(output);
                    write(file, text);
                    err.printf("exported %d memories to %s%n", memories.size(), file);
                }
            }
            catch (IOException e) {
                err.println("export failed: " + e.getMessage());
                return 1;
            }
            return 0;
        });
    }

    static String jsonl(List<ReportQueries.Memory> memories) {
        StringBuilder sb = new StringBuilder();
        for (ReportQueries.Memory m : memories) {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("memory_id", m.memoryId());
            doc.put("citation", m.citation());
            doc.put("kind", m.kind());
            doc.put("status", m.status());
            doc.put("project", m.project());
            doc.put("session_id", m.sessionId());
            doc.put("created_ts", m.createdTs() + "Z");
            doc.put("title", m.title());
            doc.put("body", m.body());
            doc.put("quotes", quotes(m));
            sb.append(Json.write(doc)).append('\n');
        }
        return sb.toString();
    }

    static String markdown(List<ReportQueries.Memory> memories, String project) {
        StringBuilder sb = new StringBuilder();
        sb.append("# Memories of ").append(project == null ? "every project" : project).append("\n\n");
        sb.append(memories.size())
            .append(" verified memories, oldest first within each kind; `java -jar jobs.jar ")
            .append("show mem:xxxxxx` shows where one came from.\n");
        List<String> kinds = new ArrayList<>(KINDS);
        memories.stream()
            .map(ReportQueries.Memory::kind)
            .distinct()
            .filter(k -> !kinds.contains(k))
            .forEach(kinds::add);
        for (String kind : kinds) {
            List<ReportQueries.Memory> ofKind = memories.stream().filter(m -> m.kind().equals(kind)).toList();
            if (ofKind.isEmpty()) {
                continue;
            }
            sb.append("\n## ").append(heading(kind)).append(" (").append(ofKind.size()).append(")\n\n");
            for (ReportQueries.Memory m : ofKind) {
                sb.append("- **").append(oneLine(m.title())).append("**");
                if (!"active".equals(m.status())) {
                    sb.append(" _(").append(m.status()).append(")_");
                }
                sb.append(" — ").append(DateTimeFormatter.ISO_LOCAL_DATE.format(m.createdTs()));
                if (m.citation() != null) {
                    sb.append(" · [").append(m.citation()).append("]");
                }
                if (project == null) {
                    sb.append(" · ").append(m.project());
                }
                sb.append('\n');
                String body = m.body().strip();
                if (!body.isEmpty() && !body.equals(m.title().strip())) {
                    for (String line : body.split("\n")) {
                        sb.append("  ").append(line.isBlank() ? "" : "> " + line.stripTrailing()).append('\n');
                    }
                }
            }
        }
        return sb.toString();
    }

    private static List<Object> quotes(ReportQueries.Memory m) {
        List<Object> quotes = new ArrayList<>();
        if (m.quotesJson() != null && Json.parse(m.quotesJson()) instanceof List<?> list) {
            for (Object q : list) {
                if (q instanceof Map<?, ?> quote) {
                    Map<String, Object> doc = new LinkedHashMap<>();
                    doc.put("event_id", quote.get("eventId"));
                    doc.put("field", quote.get("field"));
                    doc.put("text", quote.get("text"));
                    quotes.add(doc);
                }
            }
        }
        return quotes;
    }

    private static String heading(String kind) {
        String plural = kind.endsWith("y") ? kind.substring(0, kind.length() - 1) + "ies" : kind + "s";
        return plural.substring(0, 1).toUpperCase(Locale.ROOT) + plural.substring(1);
    }

    private static String oneLine(String s) {
        return s.replaceAll("\\s+", " ").strip();
    }

    private static void write(Path file, String text) throws IOException {
        Path target = file.toAbsolutePath();
        if (!Files.exists(target)) {
            CodeMemoryHome.createPrivateFile(target);
        }
        try (OutputStream o = Files.newOutputStream(target)) {
            o.write(text.getBytes(StandardCharsets.UTF_8));
        }
    }

}

package dev.codememory.processors.turns;

import dev.codememory.config.graduate.Observation;
import dev.codememory.config.graduate.Turn;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Turns and sessions that only talk to the memory: recorded like any other, but they are
 * not the work. Graduation makes no exchange of them and no claim of what their replies
 * restate, and SessionStart does not take such a session for the last one. Stateless, JDK
 * only.
 *
 * <h2>A turn about the memory</h2> A turn (a prompt and the tool calls up to the next
 * prompt) whose tool calls are all the memory's own ({@link #isMemoryTool}) or
 * {@code ToolSearch} (Claude Code's loader of deferred tools), and which
 * <ul>
 * <li>called a memory tool ({@code mem-search}, {@code mem-details}, {@code mem-save} …),
 * or</li>
 * <li>asks to pick up where the work was left ({@link Prompts#asksToContinue}: answered
 * by the continuity block), or</li>
 * <li>was answered with a memory's citation ({@code [mem:xxxxxx]}: a reply drawn from
 * injected memories), or</li>
 * <li>runs one of the memory's plugin commands
 * ({@code /code-memory:memory-search …}),</li>
 * </ul>
 * or any turn of a session {@code mem-save} spooled ({@link #isSaveSession}). A turn that
 * edited a file, ran a command or called any other tool is work, whatever it asked.
 *
 * <h2>A working session</h2> A session works when it holds a turn that is neither about
 * the memory nor empty (a prompt that carries nothing, a compaction summary), or a tool
 * call outside every turn that is not the memory's. A session of pick-up prompts,
 * questions answered from memory and memory tool calls does not.
 *
 * <h2>An echo</h2> A sentence of a reply that holds a memory's citation restates that
 * memory: it adds nothing new ({@link #echoes}).
 */
public final class MemoryTalk {

    /** How {@code mem-save} names the session it spools a save as. */
    public static final String SAVE_SESSION_PREFIX = "mem-save-";

    /** The memory's own MCP tools, as the MCP server names them. */
    public static final Set<String> MEMORY_TOOLS = Set.of("mem-search", "mem-timeline", "mem-details", "mem-tasks",
            "mem-save", "mem-stats");

    /**
     * How the memory's plugin commands are typed ({@code /code-memory:memory-search …}):
     * their output is the memory's.
     */
    static final String PLUGIN_COMMAND = "/code-memory:";

    /**
     * Tools that neither work nor ask the memory: Claude Code's loader of deferred tools.
     */
    static final Set<String> NEUTRAL_TOOLS = Set.of("ToolSearch");

    /**
     * An MCP tool as Claude Code names it: {@code mcp__<server>__<tool>} (a plugin's
     * server is {@code plugin_<plugin>_<server>}).
     */
    private static final Pattern MCP_TOOL = Pattern.compile("mcp__.+__([A-Za-z0-9_-]+)");

    /** A memory's citation as injected and as {@code mem-search} prints it. */
    private static final Pattern CITATION = Pattern.compile("(?<![A-Za-z0-9_])mem:[A-Za-z0-9_-]{6}(?![A-Za-z0-9_-])");

    private MemoryTalk() {
    }

    /** Whether {@code tool} is one of the memory's MCP tools, under any server name. */
    public static boolean isMemoryTool(String tool) {
        if (tool == null) {
            return false;
        }
        var m = MCP_TOOL.matcher(tool);
        return m.matches() && MEMORY_TOOLS.contains(m.group(1));
    }

    /** Whether the session is one {@code mem-save} spooled, not one of Claude Code's. */
    public static boolean isSaveSession(String sessionId) {
        return sessionId != null && sessionId.startsWith(SAVE_SESSION_PREFIX);
    }

    /** Whether the text holds a memory's citation. */
    public static boolean echoes(String text) {
        return text != null && CITATION.matcher(text).find();
    }

    /** Whether a call of {@code tool} is work (neither the memory's nor neutral). */
    public static boolean isWork(String tool) {
        return !isMemoryTool(tool) && !NEUTRAL_TOOLS.contains(tool);
    }

    /**
     * Whether one turn is about the memory.
     * @param tools the tools the turn called, in any order
     */
    public static boolean isAboutMemory(String sessionId, String prompt, String reply, List<String> tools) {
        if (isSaveSession(sessionId)) {
            return true;
        }
        if (tools.stream().anyMatch(MemoryTalk::isWork)) {
            return false;
        }
        return tools.stream().anyMatch(MemoryTalk::isMemoryTool) || Prompts.asksToContinue(prompt) || echoes(reply)
                || prompt != null && prompt.strip().startsWith(PLUGIN_COMMAND);
    }

    /** The ids of the turns about the memory. */
    public static Set<String> turnsAboutMemory(List<Turn> turns, List<Observation> observations) {
        List<Turn> ordered = inOrder(turns);
        List<List<String>> tools = toolsOfTurns(ordered, observations);
        Set<String> about = new HashSet<>();
        for (int i = 0; i < ordered.size(); i++) {
            Turn t = ordered.get(i);
            if (isAboutMemory(t.sessionId(), t.promptText(), t.replyText(), tools.get(i))) {
                about.add(t.turnId());
            }
        }
        return about;
    }

    /** Whether the session works (see the class comment). */
    public static boolean works(List<Turn> turns, List<Observation> observations) {
        List<Turn> ordered = inOrder(turns);
        List<List<String>> tools = toolsOfTurns(ordered, observations);
        LocalDateTime first = ordered.isEmpty() ? null : ordered.get(0).promptTs();
        boolean workBeforeTurns = observations.stream()
            .anyMatch(o -> (first == null || o.ts().isBefore(first)) && isWork(o.tool()));
        if (workBeforeTurns) {
            return true;
        }
        for (int i = 0; i < ordered.size(); i++) {
            Turn t = ordered.get(i);
            if (tools.get(i).stream().anyMatch(MemoryTalk::isWork)) {
                return true;
            }
            boolean empty = !Prompts.isSubstantive(t.promptText());
            if (!empty && !isAboutMemory(t.sessionId(), t.promptText(), t.replyText(), tools.get(i))) {
                return true;
            }
        }
        return false;
    }

    private static List<Turn> inOrder(List<Turn> turns) {
        List<Turn> ordered = new ArrayList<>(turns);
        ordered.sort(Comparator.comparing(Turn::promptTs).thenComparing(Turn::promptEventId));
        return ordered;
    }

    /**
     * The tools each turn called: those from its prompt up to the next turn's prompt (a
     * call before the first prompt belongs to none).
     */
    private static List<List<String>> toolsOfTurns(List<Turn> ordered, List<Observation> observations) {
        List<List<String>> tools = new ArrayList<>();
        for (int i = 0; i < ordered.size(); i++) {
            LocalDateTime from = ordered.get(i).promptTs();
            LocalDateTime to = i + 1 < ordered.size() ? ordered.get(i + 1).promptTs() : null;
            tools.add(observations.stream()
                .filter(o -> !o.ts().isBefore(from) && (to == null || o.ts().isBefore(to)))
                .map(Observation::tool)
                .toList());
        }
        return tools;
    }

}

package dev.codememory.capture.guard;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Where a user's prompt quotes another source: what the user pastes is not the user's
 * words. Stateless.
 */
final class UserQuotes {

    /** A line that introduces pasted text: it ends with a colon and says what follows. */
    private static final Pattern PASTE_INTRO = Pattern.compile("(?i)\\b(?:page|site|website|article|blog|post|doc|docs"
            + "|documentation|readme|issue|comment|email|e-mail|mail|message|thread|output|log|logs|result|results"
            + "|answer|response|snippet|text|says|said|wrote|writes|reads|content|contents|pasted|copied"
            + "|transcript|review|description|changelog)\\b[^\\n]{0,80}:\\s*$");

    private UserQuotes() {
    }

    /**
     * The parts of a user's prompt that quote another source, as {@code {from, to}}
     * offsets in order: the lines of a Markdown quote ({@code > …}), fenced code blocks
     * ({@code ```} or {@code ~~~}, to the closing fence or the end), and everything after
     * a line that introduces pasted text — a line ending with a colon that names where
     * the text comes from or what it is ("Here is what the page says:", "The README
     * reads:", "Output:").
     */
    static List<int[]> parts(String text) {
        List<int[]> parts = new ArrayList<>();
        if (text == null) {
            return parts;
        }
        char fence = 0;
        int fenceFrom = -1;
        int lineFrom = 0;
        while (lineFrom < text.length()) {
            int nl = text.indexOf('\n', lineFrom);
            int lineTo = nl < 0 ? text.length() : nl;
            String line = text.substring(lineFrom, lineTo).strip();
            if (fence != 0) {
                if (line.startsWith(String.valueOf(fence).repeat(3))) {
                    parts.add(new int[] { fenceFrom, lineTo });
                    fence = 0;
                }
            }
            else if (line.startsWith("```") || line.startsWith("~~~")) {
                fence = line.charAt(0);
                fenceFrom = lineFrom;
            }
            else if (line.startsWith(">")) {
                parts.add(new int[] { lineFrom, lineTo });
            }
            else if (nl >= 0 && PASTE_INTRO.matcher(line).find()) {
                parts.add(new int[] { nl + 1, text.length() });
                return merged(parts);
            }
            if (nl < 0) {
                break;
            }
            lineFrom = nl + 1;
        }
        if (fence != 0) {
            parts.add(new int[] { fenceFrom, text.length() });
        }
        return merged(parts);
    }

    private static List<int[]> merged(List<int[]> parts) {
        List<int[]> merged = new ArrayList<>();
        for (int[] part : parts) {
            int[] last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
            if (last != null && part[0] <= last[1] + 1) {
                last[1] = Math.max(last[1], part[1]);
            }
            else {
                merged.add(new int[] { part[0], part[1] });
            }
        }
        return merged;
    }

}

package dev.codememory.capture.privacy.secrets;

import java.util.regex.Matcher;

/**
 * The matches {@code find()} returns, for a pattern every match of which starts at one of
 * the given positions: the pattern is tried there only, in order, each start at or after
 * the end of the last match (as {@code find()} resumes), with transparent bounds so that
 * look-behinds see the text before a start.
 */
final class AnchoredFind {

    private final LazyPattern pattern;

    private final String text;

    private final int[] starts;

    private final int length;

    private Matcher matcher;

    private int next;

    private int lastEnd;

    AnchoredFind(LazyPattern pattern, String text, Starts starts) {
        this.pattern = pattern;
        this.text = text;
        this.starts = starts.sorted();
        this.length = text.length();
    }

    boolean find() {
        while (next < starts.length) {
            int start = starts[next++];
            if (start < lastEnd || start >= length) {
                continue;
            }
            if (matcher == null) { // compiled only when there is somewhere to try it
                matcher = pattern.get().matcher(text).useTransparentBounds(true).useAnchoringBounds(false);
            }
            matcher.region(start, length);
            if (matcher.lookingAt()) {
                lastEnd = matcher.end();
                return true;
            }
        }
        return false;
    }

    int start() {
        return matcher.start();
    }

    int start(int group) {
        return matcher.start(group);
    }

    int end(int group) {
        return matcher.end(group);
    }

}

package dev.codememory.capture.privacy.secrets;

import java.util.regex.Pattern;

/**
 * A pattern compiled on first use: a hook pays the regex compiler (~1 ms a pattern on a
 * fresh JVM) only for the patterns its text needs, not for every pattern of a rule the
 * moment one is.
 */
final class LazyPattern {

    private final String regex;

    private final int flags;

    private volatile Pattern pattern;

    LazyPattern(String regex) {
        this(regex, 0);
    }

    LazyPattern(String regex, int flags) {
        this.regex = regex;
        this.flags = flags;
    }

    Pattern get() {
        Pattern p = pattern;
        if (p == null) {
            p = Pattern.compile(regex, flags);
            pattern = p;
        }
        return p;
    }

}

package dev.codememory.capture.guard;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Texts of which every match of a regular expression contains at least one, read off the
 * expression: a text holding none of them cannot match, so its rule is not run on it. The
 * gate's rules are long alternations tried at every position of every text, and almost no
 * text holds a trigger; a few {@code indexOf} calls spare most of that work.
 * <p>
 * The reading is that of RE2's prefilter, on the part of Java's syntax the rules use: a
 * node is either <em>exact</em> (the finite set of strings it matches: a literal, a small
 * character class, alternations and sequences of those, a zero-width assertion as the
 * empty string) or has a <em>required</em> set (one of which is inside every match), or
 * neither. Anything it does not know (a flag, a back-reference, a named class) gives
 * neither, so the answer errs only toward running the rule.
 */
record Prefilter(List<String> required) {

    /** No texts known: every text is run. */
    static final Prefilter NONE = new Prefilter(List.of());

    /** The most strings an exact set may grow to before it is read as required. */
    private static final int MAX_EXACT = 16;

    /** The most strings a required set may hold; a larger one is dropped. */
    private static final int MAX_REQUIRED = 64;

    Prefilter {
        required = List.copyOf(required);
    }

    /** What every match of {@code regex} must contain; {@link #NONE} when unknown. */
    static Prefilter of(String regex) {
        try {
            Parser parser = new Parser(regex);
            Node node = parser.alternation();
            if (parser.at < regex.length()) {
                return NONE;
            }
            Set<String> required = node.required();
            if (required == null) {
                return NONE;
            }
            return new Prefilter(new ArrayList<>(Node.shortest(required)));
        }
        catch (Unknown ex) {
            return NONE;
        }
    }

    /**
     * Whether {@code text} may hold a match: it contains one of the texts, or none are
     * known.
     */
    boolean admits(String text) {
        if (this.required.isEmpty()) {
            return true;
        }
        for (String s : this.required) {
            if (text.contains(s)) {
                return true;
            }
        }
        return false;
    }

    /**
     * What is known of a part of the expression: {@code exact} (all it can match) or else
     * {@code anyOf} (one is in every match); {@code null} where nothing is known.
     */
    private record Node(Set<String> exact, Set<String> anyOf) {

        static final Node ANY = new Node(null, null);

        static Node exactly(String... strings) {
            return new Node(new LinkedHashSet<>(List.of(strings)), null);
        }

        Set<String> required() {
            if (this.exact == null) {
                return this.anyOf;
            }
            return this.exact.contains("") ? null : this.exact;
        }

        /**
         * The sequence of this and {@code next} spelled out, or null when either is
         * inexact or it grows too large.
         */
        Node joined(Node next) {
            if (this.exact == null || next.exact == null || this.exact.size() * next.exact.size() > MAX_EXACT) {
                return null;
            }
            Set<String> product = new LinkedHashSet<>();
            for (String a : this.exact) {
                for (String b : next.exact) {
                    product.add(a + b);
                }
            }
            return new Node(product, null);
        }

        Node or(Node other) {
            if (this.exact != null && other.exact != null) {
                Set<String> union = new LinkedHashSet<>(this.exact);
                union.addAll(other.exact);
                if (union.size() <= MAX_EXACT) {
                    return new Node(union, null);
                }
            }
            Set<String> a = required();
            Set<String> b = other.required();
            if (a == null || b == null) {
                return ANY;
            }
            Set<String> union = new LinkedHashSet<>(a);
            union.addAll(b);
            union = shortest(union);
            return union.size() > MAX_REQUIRED ? ANY : new Node(null, union);
        }

        /**
         * The strings no other string of {@code strings} lies within: a text holding a
         * longer one holds the shorter one too, so the set means the same.
         */
        static Set<String> shortest(Set<String> strings) {
            Set<String> kept = new LinkedHashSet<>();
            for (String s : strings) {
                boolean covered = false;
                for (String other : strings) {
                    if (!other.equals(s) && s.contains(other)) {
                        covered = true;
                        break;
                    }
                }
                if (!covered) {
                    kept.add(s);
                }
            }
            return kept;
        }

        Node repeated(int min, int max) {
            if (min == 0 && max == 1 && this.exact != null && this.exact.size() < MAX_EXACT) {
                Set<String> optional = new LinkedHashSet<>(this.exact);
                optional.add("");
                return new Node(optional, null);
            }
            if (min == 0) {
                return ANY;
            }
            if (min == 1 && max == 1) {
                return this;
            }
            return new Node(null, required());
        }

        /**
         * Of two sets either of which every match satisfies, the one that rules out more:
         * the longer shortest string, then fewer strings.
         */
        static Set<String> better(Set<String> a, Set<String> b) {
            if (a == null || b == null) {
                return a == null ? b : a;
            }
            int shortestA = a.stream().mapToInt(String::length).min().orElse(0);
            int shortestB = b.stream().mapToInt(String::length).min().orElse(0);
            if (shortestA != shortestB) {
                return shortestA > shortestB ? a : b;
            }
            return a.size() <= b.size() ? a : b;
        }

    }

    /** A construct the reading does not know: the whole expression gets {@link #NONE}. */
    private static final class Unknown extends RuntimeException {

        Unknown() {
            super(null, null, false, false);
        }

    }

    /** Recursive descent over the expression's text, from {@code at}. */
    private static final class Parser {

        private final String regex;

        private int at;

        Parser(String regex) {
            this.regex = regex;
        }

        Node alternation() {
            Node node = sequence();
            while (this.at < this.regex.length() && this.regex.charAt(this.at) == '|') {
                this.at++;
                node = node.or(sequence());
            }
            return node;
        }

        /**
         * A run of exact atoms is joined into the words it spells before anything inexact
         * ends it; of the runs, the one that rules out most is required.
         */
        private Node sequence() {
            Node run = Node.exactly("");
            Set<String> required = null;
            boolean inexact = false;
            while (this.at < this.regex.length()) {
                char c = this.regex.charAt(this.at);
                if (c == '|' || c == ')') {
                    break;
                }
                Node next = quantified(atom());
                Node joined = run.joined(next);
                if (joined != null) {
                    run = joined;
                }
                else {
                    inexact = true;
                    required = Node.better(required, run.required());
                    run = next;
                }
            }
            return inexact ? new Node(null, Node.better(required, run.required())) : run;
        }

        private Node quantified(Node atom) {
            while (this.at < this.regex.length()) {
                char c = this.regex.charAt(this.at);
                int min;
                int max;
                if (c == '?') {
                    min = 0;
                    max = 1;
                    this.at++;
                }
                else if (c == '*') {
                    min = 0;
                    max = Integer.MAX_VALUE;
                    this.at++;
                }
                else if (c == '+') {
                    min = 1;
                    max = Integer.MAX_VALUE;
                    this.at++;
                }
                else if (c == '{') {
                    int close = this.regex.indexOf('}', this.at);
                    if (close < 0) {
                        throw new Unknown();
                    }
                    String[] bounds = this.regex.substring(this.at + 1, close).split(",", -1);
                    try {
                        min = Integer.parseInt(bounds[0]);
                        max = bounds.length == 1 ? min
                                : bounds[1].isEmpty() ? Integer.MAX_VALUE : Integer.parseInt(bounds[1]);
                    }
                    catch (NumberFormatException ex) {
                        throw new Unknown();
                    }
                    this.at = close + 1;
                }
                else {
                    return atom;
                }
                // lazy and possessive forms match the same strings
                if (this.at < this.regex.length()
                        && (this.regex.charAt(this.at) == '?' || this.regex.charAt(this.at) == '+')) {
                    this.at++;
                }
                atom = atom.repeated(min, max);
            }
            return atom;
        }

        private Node atom() {
            char c = this.regex.charAt(this.at++);
            return switch (c) {
                case '(' -> group();
                case '[' -> {
                    Set<Character> chars = characterClass();
                    yield chars == null ? Node.ANY : exactlyOneOf(chars);
                }
                case '\\' -> escape();
                case '.' -> Node.ANY;
                case '^', '$' -> Node.exactly("");
                case '*', '+', '?', '{', ')', '|' -> throw new Unknown();
                default -> Node.exactly(String.valueOf(c));
            };
        }

        private Node group() {
            boolean zeroWidth = false;
            if (this.regex.startsWith("?:", this.at) || this.regex.startsWith("?>", this.at)) {
                this.at += 2;
            }
            else if (this.regex.startsWith("?=", this.at) || this.regex.startsWith("?!", this.at)) {
                this.at += 2;
                zeroWidth = true;
            }
            else if (this.regex.startsWith("?<=", this.at) || this.regex.startsWith("?<!", this.at)) {
                this.at += 3;
                zeroWidth = true;
            }
            else if (this.regex.startsWith("?", this.at)) {
                // flags and named groups
                throw new Unknown();
            }
            Node inner = alternation();
            if (this.at >= this.regex.length() || this.regex.charAt(this.at) != ')') {
                throw new Unknown();
            }
            this.at++;
            return zeroWidth ? Node.exactly("") : inner;
        }

        private Node escape() {
            if (this.at >= this.regex.length()) {
                throw new Unknown();
            }
            char c = this.regex.charAt(this.at++);
            return switch (c) {
                case 'b', 'B', 'A', 'z', 'Z', 'G' -> Node.exactly("");
                case 's', 'S', 'w', 'W', 'd', 'D', 'h', 'H', 'v', 'V' -> Node.ANY;
                case 'n' -> Node.exactly("\n");
                case 't' -> Node.exactly("\t");
                case 'r' -> Node.exactly("\r");
                case 'f' -> Node.exactly("\f");
                default -> {
                    if (Character.isLetterOrDigit(c)) {
                        throw new Unknown();
                    }
                    yield Node.exactly(String.valueOf(c));
                }
            };
        }

        /**
         * The characters of a class after its {@code [}, or {@code null} for one that is
         * negated, large, or holds what is not read here.
         */
        private Set<Character> characterClass() {
            Set<Character> chars = new LinkedHashSet<>();
            boolean known = true;
            if (this.at < this.regex.length() && this.regex.charAt(this.at) == '^') {
                known = false;
                this.at++;
            }
            int depth = 1;
            boolean first = true;
            while (depth > 0) {
                if (this.at >= this.regex.length()) {
                    throw new Unknown();
                }
                char c = this.regex.charAt(this.at++);
                if (c == ']' && !first) {
                    depth--;
                }
                else if (c == '[') {
                    depth++;
                    known = false;
                }
                else if (c == '\\') {
                    if (this.at >= this.regex.length()) {
                        throw new Unknown();
                    }
                    char e = this.regex.charAt(this.at++);
                    switch (e) {
                        case 'n' -> chars.add('\n');
                        case 't' -> chars.add('\t');
                        case 'r' -> chars.add('\r');
                        default -> {
                            if (Character.isLetterOrDigit(e)) {
                                known = false;
                            }
                            else {
                                chars.add(e);
                            }
                        }
                    }
                }
                else if (c == '&' && this.regex.startsWith("&", this.at)) {
                    known = false;
                }
                else if (c == '-' && !first && this.at < this.regex.length() && this.regex.charAt(this.at) != ']') {
                    // a range: more than a few characters is read as any
                    known = false;
                }
                else {
                    chars.add(c);
                }
                first = false;
            }
            return known && chars.size() <= 4 ? chars : null;
        }

        private static Node exactlyOneOf(Set<Character> chars) {
            return Node.exactly(chars.stream().map(String::valueOf).toArray(String[]::new));
        }

    }

}

package dev.codememory.retrieval.vector.milvus;

import dev.codememory.config.vector.VectorFilter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;

/**
 * Builds Milvus boolean filter expressions. Every value is a string literal built by
 * {@link #literal(String)}, so a project path or memory id can never change the
 * expression's structure.
 *
 * <p>
 * How Milvus reads a literal (milvus {@code internal/parser/planparserv2}:
 * {@code Plan.g4} and {@code convertEscapeSingle}): a double-quoted {@code StringLiteral}
 * may contain any character except an unescaped {@code "}, {@code \}, CR or LF; the text
 * is then unquoted with Go's {@code strconv.Unquote} rules. So inside double quotes we
 * escape {@code \} as {@code \\}, {@code "} as {@code \"}, LF, CR and TAB as {@code \n},
 * {@code \r}, {@code \t}, and every other control character (U+0000–U+001F, U+007F) as a
 * backslash-u escape with four hex digits. Everything else, single quotes and non-ASCII
 * letters included, stays as it is (UTF-8 on the wire).
 */
final class MilvusFilters {

    private MilvusFilters() {
    }

    /**
     * The expression for a search filter; empty when nothing restricts (Milvus then
     * filters nothing).
     */
    static String of(VectorFilter filter) {
        List<String> clauses = new ArrayList<>();
        if (filter.project() != null) {
            clauses.add(MilvusSchema.PROJECT + " == " + literal(filter.project()));
        }
        if (!filter.kinds().isEmpty()) {
            clauses.add(in(MilvusSchema.KIND, filter.kinds()));
        }
        if (!filter.statuses().isEmpty()) {
            clauses.add(in(MilvusSchema.STATUS, filter.statuses()));
        }
        if (filter.from() != null) {
            clauses.add(MilvusSchema.TS + " >= " + MilvusRows.epochMillis(filter.from()));
        }
        if (filter.to() != null) {
            clauses.add(MilvusSchema.TS + " < " + MilvusRows.epochMillis(filter.to()));
        }
        return String.join(" and ", clauses);
    }

    /** {@code memory_id in ["a", "b"]}, in the order given. */
    static String memoryIdIn(Collection<String> memoryIds) {
        if (memoryIds.isEmpty()) {
            throw new IllegalArgumentException("no memory ids to match");
        }
        return MilvusSchema.MEMORY_ID + " in " + list(memoryIds);
    }

    /**
     * Sorted, so the same filter always gives the same expression (sets have no order).
     */
    private static String in(String field, Collection<String> values) {
        return field + " in " + list(new TreeSet<>(values));
    }

    private static String list(Collection<String> values) {
        StringBuilder out = new StringBuilder("[");
        for (String value : values) {
            if (out.length() > 1) {
                out.append(", ");
            }
            out.append(literal(value));
        }
        return out.append(']').toString();
    }

    /**
     * {@code value} as a double-quoted Milvus string literal that denotes exactly
     * {@code value}.
     */
    static String literal(String value) {
        StringBuilder out = new StringBuilder(value.length() + 2).append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '\\' -> out.append("\\\\");
                case '"' -> out.append("\\\"");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        out.append("\\u00")
                            .append(Character.forDigit(c >> 4, 16))
                            .append(Character.forDigit(c & 0xf, 16));
                    }
                    else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }

}

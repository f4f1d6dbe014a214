package dev.codememory.retrieval.embed;

import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;

/**
 * Deterministic filler text made of common words, each one WordPiece token in the MiniLM
 * vocabulary.
 */
final class Texts {

    private static final String[] WORDS = ("the memory system stores every decision made during a session so that "
            + "later work can find it again when the same question comes back from another user or project and "
            + "each note keeps its source file line number date time author reason status")
        .split(" ");

    private Texts() {
    }

    /** {@code count} words starting at word {@code offset} of the cycle. */
    static String words(int count, int offset) {
        StringJoiner text = new StringJoiner(" ");
        for (int i = 0; i < count; i++) {
            text.add(WORDS[(offset + i) % WORDS.length]);
        }
        return text.toString();
    }

    /** {@code count} texts of about {@code length} words, all different. */
    static List<String> corpus(int count, int length) {
        List<String> texts = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            texts.add("note " + i + ": " + words(length - 5 + i % 11, i * 7));
        }
        return texts;
    }

}

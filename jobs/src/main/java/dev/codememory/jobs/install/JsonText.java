package dev.codememory.jobs.install;

import dev.codememory.config.json.Json;
import dev.codememory.config.json.JsonParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * A JSON document read with the position of every value, so that a change can be made
 * where it belongs and every other byte of the file stays as the user (or Claude Code)
 * wrote it. Strict JSON (no comments, no trailing commas); anything else is an
 * {@link IllegalArgumentException} naming the offset.
 */
final class JsonText {

    sealed interface Node permits ObjectNode, ArrayNode, StringNode, OtherNode {

        /** Offset of the first character. */
        int start();

        /** Offset just after the last character. */
        int end();

    }

    record Member(String key, int keyStart, Node value) {
    }

    record ObjectNode(int start, int end, List<Member> members) implements Node {

        Member member(String key) {
            for (Member m : members) {
                if (m.key().equals(key)) {
                    return m;
                }
            }
            return null;
        }
    }

    record ArrayNode(int start, int end, List<Node> elements) implements Node {
    }

    record StringNode(int start, int end, String value) implements Node {
    }

    /** A number, true, false or null. */
    record OtherNode(int start, int end) implements Node {
    }

    private final String text;

    private int pos;

    private JsonText(String text) {
        this.text = text;
    }

    static Node parse(String text) {
        JsonText parser = new JsonText(text);
        parser.skipWhitespace();
        Node node = parser.value(0);
        parser.skipWhitespace();
        if (parser.pos != text.length()) {
            throw parser.error("unexpected text after the JSON document");
        }
        return node;
    }

    private Node value(int depth) {
        if (depth > 200) {
            throw error("nesting too deep");
        }
        if (pos >= text.length()) {
            throw error("unexpected end of the document");
        }
        char c = text.charAt(pos);
        return switch (c) {
            case '{' -> object(depth);
            case '[' -> array(depth);
            case '"' -> string();
            default -> other();
        };
    }

    private ObjectNode object(int depth) {
        int start = pos++;
        List<Member> members = new ArrayList<>();
        skipWhitespace();
        if (peek() == '}') {
            pos++;
            return new ObjectNode(start, pos, members);
        }
        while (true) {
            skipWhitespace();
            if (peek() != '"') {
                throw error("expected a member name");
            }
            int keyStart = pos;
            String key = string().value();
            skipWhitespace();
            expect(':');
            skipWhitespace();
            members.add(new Member(key, keyStart, value(depth + 1)));
            skipWhitespace();
            char c = peek();
            pos++;
            if (c == '}') {
                return new ObjectNode(start, pos, members);
            }
            if (c != ',') {
                pos--;
                throw error("expected ',' or '}'");
            }
        }
    }

    private ArrayNode array(int depth) {
        int start = pos++;
        List<Node> elements = new ArrayList<>();
        skipWhitespace();
        if (peek() == ']') {
            pos++;
            return new ArrayNode(start, pos, elements);
        }
        while (true) {
            skipWhitespace();
            elements.add(value(depth + 1));
            skipWhitespace();
            char c = peek();
            pos++;
            if (c == ']') {
                return new ArrayNode(start, pos, elements);
            }
            if (c != ',') {
                pos--;
                throw error("expected ',' or ']'");
            }
        }
    }

    /**
     * A string token: found here, decoded by the project's JSON reader (one set of escape
     * rules).
     */
    private StringNode string() {
        int start = pos;
        expect('"');
        while (true) {
            if (pos >= text.length()) {
                throw error("unterminated string");
            }
            char c = text.charAt(pos++);
            if (c == '"') {
                return new StringNode(start, pos, (String) decode(start, "string"));
            }
            if (c == '\\') {
                pos++; // the escaped character cannot end the string
            }
        }
    }

    /**
     * A number, true, false or null: found here, checked by the project's JSON reader.
     */
    private OtherNode other() {
        int start = pos;
        while (pos < text.length() && "{}[],: \t\r\n\"".indexOf(text.charAt(pos)) < 0) {
            pos++;
        }
        if (pos == start) {
            throw error("unexpected character");
        }
        decode(start, "value");
        return new OtherNode(start, pos);
    }

    /** The JSON value of the token from {@code start} to the current position. */
    private Object decode(int start, String what) {
        try {
            return Json.parse(text.substring(start, pos));
        }
        catch (JsonParseException e) {
            pos = start;
            throw error("bad " + what + " (" + e.getMessage() + ")");
        }
    }

    private char peek() {
        if (pos >= text.length()) {
            throw error("unexpected end of the document");
        }
        return text.charAt(pos);
    }

    private void expect(char c) {
        if (peek() != c) {
            throw error("expected '" + c + "'");
        }
        pos++;
    }

    private void skipWhitespace() {
        while (pos < text.length() && " \t\r\n".indexOf(text.charAt(pos)) >= 0) {
            pos++;
        }
    }

    private IllegalArgumentException error(String message) {
        int line = 1;
        int column = 1;
        for (int i = 0; i < Math.min(pos, text.length()); i++) {
            if (text.charAt(i) == '\n') {
                line++;
                column = 1;
            }
            else {
                column++;
            }
        }
        return new IllegalArgumentException("not valid JSON at line " + line + ", column " + column + ": " + message);
    }

}

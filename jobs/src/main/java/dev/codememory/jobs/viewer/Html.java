package dev.codememory.jobs.viewer;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;

/**
 * The viewer's HTML: every text from the store goes through {@link #esc} (prompts, tool
 * output and memories are shown as data, never as markup), every page has the same header
 * and navigation, and nothing inline needs a script or style exception in the CSP.
 */
final class Html {

    /** The pages of the navigation bar: path and label. */
    static final List<String[]> NAV = List.of(new String[] { "/", "Timeline" }, new String[] { "/search", "Search" },
            new String[] { "/tasks", "Tasks" }, new String[] { "/context", "Context preview" },
            new String[] { "/health", "Health" }, new String[] { "/forget", "Forget" });

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    private Html() {
    }

    /** HTML-escapes text for an element's content or a quoted attribute. */
    static String esc(Object value) {
        if (value == null) {
            return "";
        }
        String s = value.toString();
        StringBuilder out = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }

    /** A query-string or path value. */
    static String url(String value) {
        return URLEncoder.encode(value == null ? "" : value, StandardCharsets.UTF_8);
    }

    /** A UTC time as the viewer shows it. */
    static String time(LocalDateTime t) {
        return t == null ? "" : TIME.format(t) + "Z";
    }

    /** A link to a memory's page by its citation. */
    static String memoryLink(String citation, String text) {
        return "<a href=\"/memory/" + esc(citation) + "\">" + esc(text) + "</a>";
    }

    /** A link to a session's page. */
    static String sessionLink(String sessionId) {
        return "<a href=\"/session/" + esc(url(sessionId)) + "\">" + esc(sessionId) + "</a>";
    }

    /**
     * A whole page: head, navigation (the current page marked), title, body, sign-out.
     */
    static String page(String path, String title, String body, String csrf) {
        StringBuilder nav = new StringBuilder();
        for (String[] item : NAV) {
            boolean here = item[0].equals(path);
            nav.append("<a href=\"")
                .append(item[0])
                .append('"')
                .append(here ? " aria-current=\"page\"" : "")
                .append('>')
                .append(item[1])
                .append("</a>");
        }
        return """
                <!doctype html>
                <html lang="en"><head><meta charset="utf-8">
                <meta name="viewport" content="width=device-width, initial-scale=1">
                <meta name="csrf-token" content="%s">
                <title>%s · code-memory</title>
                <link rel="stylesheet" href="/static/app.css">
                <script src="/static/app.js" defer></script>
                </head><body>
                <header><strong>code-memory</strong><nav>%s</nav></header>
                <main><h1>%s</h1>
                %s
                </main>
                <footer><form method="post" action="/signout">%s<button id="signout">Sign out</button></form></footer>
                </body></html>
                """.formatted(esc(csrf), esc(title), nav, esc(title), body, csrfField(csrf));
    }

    /** A hidden form field carrying the CSRF token. */
    static String csrfField(String csrf) {
        return "<input type=\"hidden\" name=\"csrf_token\" value=\"" + esc(csrf) + "\">";
    }

}

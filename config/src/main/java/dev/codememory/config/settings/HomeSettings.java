package dev.codememory.config.settings;

import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.config.team.TeamProperties;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * The settings that the commands running without Spring need ({@code query},
 * {@code show}, the hook's cold path), read from the same files Spring reads in the home
 * — {@code application.properties}, then {@code application.yml} /
 * {@code application.yaml} over it — with the same names
 * ({@code code-memory.vector-store}, nested or dotted YAML, kebab-case or camelCase).
 * Only the vector store, Milvus and embedding settings are read; the rest keep their
 * defaults.
 */
public final class HomeSettings {

    private HomeSettings() {
    }

    public static CodeMemoryProperties load(CodeMemoryHome home) {
        return of(home, flat(home));
    }

    /** The team store's settings ({@code code-memory.team.*}). */
    public static TeamProperties team(CodeMemoryHome home) {
        return team(flat(home));
    }

    static TeamProperties team(Map<String, String> flat) {
        String p = "code-memory.team.";
        String timeout = flat.get(p + "timeout");
        String publishEvery = flat.get(p + "publish-every");
        return new TeamProperties(flat.containsKey(p + "enabled") ? Boolean.valueOf(flat.get(p + "enabled")) : null,
                flat.get(p + "author"), list(flat, p + "projects"), list(flat, p + "kinds"),
                new TeamProperties.Postgres(flat.get(p + "postgres.url"), flat.get(p + "postgres.user"),
                        flat.get(p + "postgres.password"), flat.get(p + "postgres.schema")),
                new TeamProperties.Milvus(flat.get(p + "milvus.uri"), flat.get(p + "milvus.token"),
                        flat.get(p + "milvus.database")),
                timeout == null ? null : duration(p + "timeout", timeout), integer(flat, p + "chunk-size"),
                publishEvery == null ? null : duration(p + "publish-every", publishEvery));
    }

    /**
     * {@code 1500ms}, {@code 2s} or ISO-8601 ({@code PT2S}), as Spring reads a duration.
     */
    static java.time.Duration duration(String key, String value) {
        try {
            String v = value.strip().toLowerCase(Locale.ROOT);
            if (v.matches("\\d+ms")) {
                return java.time.Duration.ofMillis(Long.parseLong(v.substring(0, v.length() - 2)));
            }
            if (v.matches("\\d+s")) {
                return java.time.Duration.ofSeconds(Long.parseLong(v.substring(0, v.length() - 1)));
            }
            return java.time.Duration.parse(value.strip());
        }
        catch (RuntimeException e) {
            throw new IllegalArgumentException(key + " must be a duration such as 1500ms, 2s or PT2S, was " + value, e);
        }
    }

    /**
     * A list setting: {@code key[0]}, {@code key[1]}, … (YAML lists, indexed properties)
     * or one comma-separated value; null when absent.
     */
    private static java.util.List<String> list(Map<String, String> flat, String key) {
        java.util.List<String> out = new java.util.ArrayList<>();
        if (flat.containsKey(key)) {
            for (String part : flat.get(key).split(",")) {
                if (!part.isBlank()) {
                    out.add(part.strip());
                }
            }
        }
        for (int i = 0; flat.containsKey(key + "[" + i + "]"); i++) {
            out.add(flat.get(key + "[" + i + "]"));
        }
        return out.isEmpty() ? null : out;
    }

    private static Map<String, String> flat(CodeMemoryHome home) {
        Map<String, String> flat = new HashMap<>();
        Path properties = home.root().resolve("application.properties");
        if (Files.isRegularFile(properties)) {
            Properties p = new Properties();
            try (InputStream in = Files.newInputStream(properties)) {
                p.load(in);
            }
            catch (IOException e) {
                throw new UncheckedIOException("cannot read " + properties, e);
            }
            p.forEach((k, v) -> flat.put(canonical(k.toString()), v.toString().strip()));
        }
        for (String name : new String[] { "application.yml", "application.yaml" }) {
            Path yaml = home.root().resolve(name);
            if (Files.isRegularFile(yaml)) {
                try (InputStream in = Files.newInputStream(yaml)) {
                    Object doc = new Yaml(new SafeConstructor(new LoaderOptions())).load(in);
                    flatten("", doc, flat);
                }
                catch (IOException e) {
                    throw new UncheckedIOException("cannot read " + yaml, e);
                }
            }
        }
        return flat;
    }

    static CodeMemoryProperties of(CodeMemoryHome home, Map<String, String> flat) {
        Integer dimension = flat.containsKey("code-memory.embedding.torchscript.dimension")
                ? Integer.valueOf(flat.get("code-memory.embedding.torchscript.dimension")) : null;
        CodeMemoryProperties.TorchScript torchScript = new CodeMemoryProperties.TorchScript(
                flat.get("code-memory.embedding.torchscript.url"),
                flat.get("code-memory.embedding.torchscript.tokenizer"), dimension,
                flat.get("code-memory.embedding.torchscript.name"));
        CodeMemoryProperties.Embedding embedding = new CodeMemoryProperties.Embedding(
                integer(flat, "code-memory.embedding.batch-size"), integer(flat, "code-memory.embedding.chunk-size"),
                flat.get("code-memory.embedding.model"), torchScript.url() == null ? null : torchScript,
                integer(flat, "code-memory.embedding.threads"));
        return new CodeMemoryProperties(home.root().toString(), null, null, null, null,
                flat.get("code-memory.vector-store"),
                new CodeMemoryProperties.Milvus(flat.get("code-memory.milvus.uri"),
                        flat.get("code-memory.milvus.token"), flat.get("code-memory.milvus.database")),
                embedding);
    }

    private static Integer integer(Map<String, String> flat, String key) {
        String value = flat.get(key);
        try {
            return value == null ? null : Integer.valueOf(value);
        }
        catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a number, was " + value, e);
        }
    }

    private static void flatten(String prefix, Object node, Map<String, String> out) {
        if (node instanceof Map<?, ?> map) {
            map.forEach((k, v) -> flatten(prefix.isEmpty() ? String.valueOf(k) : prefix + "." + k, v, out));
        }
        else if (node instanceof java.util.List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                flatten(prefix + "[" + i + "]", list.get(i), out);
            }
        }
        else if (node != null && !prefix.isEmpty()) {
            out.put(canonical(prefix), String.valueOf(node).strip());
        }
    }

    /**
     * Spring's relaxed names: {@code code-memory.vectorStore} and
     * {@code code-memory.vector_store} are one key.
     */
    static String canonical(String key) {
        StringBuilder out = new StringBuilder(key.length() + 4);
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (Character.isUpperCase(c)) {
                out.append('-').append(Character.toLowerCase(c));
            }
            else {
                out.append(c == '_' ? '-' : c);
            }
        }
        return out.toString().toLowerCase(Locale.ROOT);
    }

}

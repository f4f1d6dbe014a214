package dev.codememory.jobs.runtime;

import dev.codememory.config.home.CodeMemoryHome;
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
        return of(home, flat);
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

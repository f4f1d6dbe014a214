package dev.codememory.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;

/**
 * What ships is jobs.jar and its lib/: neither may hold a class of this module, nor a
 * class of ours named like a bench, the eval command, a generator or a fake (those belong
 * here or in test code). Reads the jars the build just made, so it runs after the product
 * is packaged.
 */
class ProductJarContentsIntegrationTests {

    private static final Path JOBS_JAR = Path.of(System.getProperty("jobs.jar", "../jobs/target/jobs.jar"))
        .toAbsolutePath()
        .normalize();

    private static final Path BENCH_CLASSES = Path.of(System.getProperty("bench.classes", "target/classes"));

    /**
     * In a class's simple name (or a nested class's): a bench, the eval command, a
     * generator, a fake.
     */
    private static final Pattern NOT_PRODUCT = Pattern.compile("Bench|Eval(?![a-z])|Generated|Fake");

    @Test
    void jobsJarAndItsLibHoldNoBenchEvalGeneratorOrFakeClass() throws IOException {
        Set<String> benchClasses = classesIn(BENCH_CLASSES);
        List<Path> jars = productJars();
        List<String> found = new ArrayList<>();
        int ours = 0;
        for (Path jar : jars) {
            try (JarFile file = new JarFile(jar.toFile())) {
                for (ZipEntry entry : Collections.list(file.entries())) {
                    String name = entry.getName();
                    if (!name.endsWith(".class")) {
                        continue;
                    }
                    boolean product = name.startsWith("dev/codememory/");
                    ours += product ? 1 : 0;
                    if (benchClasses.contains(name)) {
                        found.add(jar.getFileName() + ": " + name + " (a class of the bench module)");
                    }
                    else if (product && namedLikeABench(name)) {
                        found.add(jar.getFileName() + ": " + name);
                    }
                }
            }
        }

        assertThat(benchClasses).as("the bench module's classes, read from " + BENCH_CLASSES)
            .contains("dev/codememory/bench/BenchMain.class", "dev/codememory/bench/EvalCommand.class");
        assertThat(ours).as("classes of ours in jobs.jar and lib/").isGreaterThan(300);
        assertThat(found).as("in " + JOBS_JAR + " or its lib/").isEmpty();
    }

    @Test
    void jobsJarLoadsNothingButItsLib() throws IOException {
        try (JarFile jar = new JarFile(JOBS_JAR.toFile())) {
            String classPath = jar.getManifest().getMainAttributes().getValue("Class-Path");

            assertThat(classPath.split(" ")).isNotEmpty()
                .allSatisfy(entry -> assertThat(entry).startsWith("lib/").doesNotContain(".."))
                .allSatisfy(entry -> assertThat(JOBS_JAR.resolveSibling(entry)).isRegularFile())
                .noneMatch(entry -> entry.contains("bench") || entry.contains("-tests"));
        }
    }

    @Test
    void namesTheBenchesTheEvalCommandGeneratorsAndFakesButNotTheProductsOwnClasses() {
        assertThat(Stream.of("dev/codememory/jobs/cli/BenchCommand.class", "dev/codememory/jobs/query/QueryBench.class",
                "dev/codememory/jobs/query/QueryBench$Fixture.class", "dev/codememory/jobs/query/EvalCommand.class",
                "dev/codememory/jobs/cli/GeneratedSessions.class", "dev/codememory/x/Outer$GeneratedRows.class",
                "dev/codememory/processors/embed/HashingFakeEmbedder.class"))
            .allMatch(ProductJarContentsIntegrationTests::namedLikeABench);
        assertThat(Stream.of("dev/codememory/jobs/hook/HookCommand.class",
                "dev/codememory/jobs/hook/HookTraining.class", "dev/codememory/processors/query/Evaluation.class",
                "dev/codememory/jobs/query/QueryService$1.class"))
            .noneMatch(ProductJarContentsIntegrationTests::namedLikeABench);
    }

    static boolean namedLikeABench(String classFile) {
        String binaryName = classFile.substring(classFile.lastIndexOf('/') + 1, classFile.length() - ".class".length());
        return Arrays.stream(binaryName.split("\\$")).anyMatch(part -> NOT_PRODUCT.matcher(part).find());
    }

    /** jobs.jar and every jar in lib/ beside it. */
    private static List<Path> productJars() throws IOException {
        assertThat(JOBS_JAR).as("jobs.jar, built by this build").isRegularFile();
        List<Path> jars = new ArrayList<>(List.of(JOBS_JAR));
        try (Stream<Path> lib = Files.list(JOBS_JAR.resolveSibling("lib"))) {
            jars.addAll(lib.filter(p -> p.toString().endsWith(".jar")).sorted().toList());
        }
        assertThat(jars).as("jobs.jar and lib/").hasSizeGreaterThan(10);
        return jars;
    }

    private static Set<String> classesIn(Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(p -> p.toString().endsWith(".class"))
                .map(p -> root.relativize(p).toString().replace('\\', '/'))
                .collect(java.util.stream.Collectors.toCollection(TreeSet::new));
        }
    }

}

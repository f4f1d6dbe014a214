package dev.codememory.bench;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * Which {@code jobs.jar} the benches and the eval launch: they measure the product as
 * Claude Code and a user run it, as separate processes of the built jar, not of the copy
 * of its classes on this jar's class path. By default the one built in the same clone
 * ({@code bench/target/} → {@code ../../jobs/target/jobs.jar}, with its {@code lib/} and
 * class-data archive beside it), else {@code --jar}.
 */
final class ProductJar {

    @Option(names = "--jar", paramLabel = "FILE",
            description = "the product's jobs.jar to run (default: jobs/target/jobs.jar of the clone this bench.jar "
                    + "was built in)")
    Path jar;

    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    /** The jar to launch; a usage error (exit 2) when it is not there. */
    Path path() {
        Path path = (jar != null ? jar : besideThisBuild()).toAbsolutePath().normalize();
        if (!Files.isRegularFile(path)) {
            throw new ParameterException(command.commandLine(),
                    "no jobs.jar at " + path + ": build it (./mvnw -B " + "package -DskipTests) or give --jar FILE");
        }
        return path;
    }

    /**
     * {@code jobs/target/jobs.jar} of the clone this class was built in: this class is in
     * {@code bench/target/bench.jar} (or {@code bench/target/classes/} when run from the
     * build), both in {@code bench/target/}.
     */
    static Path besideThisBuild() {
        try {
            Path here = Path.of(ProductJar.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return here.toAbsolutePath().getParent().resolve("../../jobs/target/jobs.jar").normalize();
        }
        catch (URISyntaxException e) {
            throw new IllegalStateException("cannot tell where bench.jar is: " + e.getMessage(), e);
        }
    }

}

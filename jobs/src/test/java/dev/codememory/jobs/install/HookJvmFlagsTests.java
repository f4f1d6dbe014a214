package dev.codememory.jobs.install;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The hook's JVM flags are written in four places that cannot share a constant: the
 * installed command (from {@link InstallCommand#HOOK_JVM_FLAGS}), the build's training
 * run of the class-data archive, the plugin's launcher and the README. An archive trained
 * under other flags (another collector) loses the archived module graph, so they must
 * stay equal.
 */
class HookJvmFlagsTests {

    private static final Path MODULE = Path.of("").toAbsolutePath();

    @Test
    void theArchiveIsTrainedUnderTheHookFlags() throws IOException {
        String pom = Files.readString(MODULE.resolve("pom.xml"));
        String execution = pom.substring(pom.indexOf("<id>hook-cds-archive</id>"));
        execution = execution.substring(0, execution.indexOf("</arguments>"));
        List<String> arguments = new ArrayList<>();
        Matcher m = Pattern.compile("<argument>([^<]*)</argument>").matcher(execution);
        while (m.find()) {
            arguments.add(m.group(1));
        }

        assertThat(arguments).containsSubsequence(InstallCommand.HOOK_JVM_FLAGS)
            .filteredOn(a -> a.startsWith("-X") && !a.startsWith("-XX:ArchiveClassesAtExit"))
            .containsExactlyElementsOf(InstallCommand.HOOK_JVM_FLAGS);
    }

    @Test
    void thePluginLauncherAndTheReadmeRunTheHookWithTheSameFlags() throws IOException {
        String flags = String.join(" ", InstallCommand.HOOK_JVM_FLAGS);
        String launcher = Files.readString(MODULE.resolveSibling("plugin").resolve("bin/code-memory"))
            .replaceAll("\\\\\\n\\s*", "");
        String readme = Files.readString(MODULE.resolveSibling("README.md"));

        assertThat(launcher.split(Pattern.quote(flags), -1)).hasSize(3); // with and
                                                                         // without the
                                                                         // archive
        assertThat(readme).contains(flags + " -jar /path/to/code-memory/jobs/target/jobs.jar hook");
    }

    @Test
    void theInstalledCommandQuotesOnlyWhatTheShellWouldSplit() {
        String command = InstallCommand.hookCommand(Path.of("/opt/my tools/jobs.jar"));

        assertThat(command).isEqualTo(
                "java " + String.join(" ", InstallCommand.HOOK_JVM_FLAGS) + " -jar '/opt/my tools/jobs.jar' hook");
    }

}

package dev.codememory.jobs;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * No import cycle between packages. Maven keeps the modules layered
 * ({@link ModuleLayersTests}); this keeps the packages inside them so: a package may use
 * another only if that one does not use it back, directly or around a circle. Every
 * package is a slice of its own, the root of jobs ({@code Main}, {@code Cli}) included,
 * so a feature package that reached back up to the command line would fail here. ArchUnit
 * reads the compiled classes: a constant the compiler inlined leaves no trace, every
 * other use does.
 */
class PackageCyclesTests {

    /**
     * Every main class of the product, read once for this test and
     * {@link ModuleLayersTests}.
     */
    static final JavaClasses MAIN_CLASSES = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        // under verify the other modules come as jars, their test fixtures too
        // (capture-tests.jar, config-tests.jar): not product classes
        .withImportOption(location -> !location.contains("-tests.jar"))
        .importPackages("dev.codememory");

    @Test
    void packagesAreFreeOfCycles() {
        slices().matching("dev.codememory.(**)").should().beFreeOfCycles().check(MAIN_CLASSES);
    }

    /**
     * The same one level up: a folder of a module taken whole, with its subpackages
     * (jobs' serve, mcp, viewer; retrieval's vector with milvus, ...), may use another
     * folder only if that one does not use it back.
     */
    @Test
    void foldersAreFreeOfCycles() {
        slices().matching("dev.codememory.(*).(*)..").should().beFreeOfCycles().check(MAIN_CLASSES);
    }

    @Test
    void readsTheMainClassesOfEveryProductModule() {
        assertThat(MAIN_CLASSES.stream().map(c -> c.getPackageName().split("\\.")[2]).distinct())
            .containsExactlyInAnyOrder("config", "capture", "readers", "processors", "writers", "retrieval", "jobs");
        assertThat(MAIN_CLASSES.stream().map(c -> c.getSimpleName())).contains("Main", "Cli")
            .doesNotContain(PackageCyclesTests.class.getSimpleName());
    }

}

package dev.codememory.jobs;

import com.tngtech.archunit.core.domain.JavaClasses;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;

/**
 * The modules as layers, read from the compiled classes' imports: the core
 * ({@code config}: records, the database, settings) under everything; capture (what the
 * hook does before an event reaches disk, and the context gate) on the core alone and the
 * JDK; the graduation stages ({@code readers}, {@code processors}, {@code writers}) on
 * capture and the core; retrieval (query, ranking, disclosure, the model, the vector
 * stores) on those; the application ({@code jobs}: commands, serve, MCP, viewer) on top,
 * used by none. Maven's module dependencies already forbid an upward import between
 * modules; this states the order in one place and fails on a dependency the build would
 * let through (a stage module reaching into another).
 */
class ModuleLayersTests {

    private static final JavaClasses MAIN_CLASSES = PackageCyclesTests.MAIN_CLASSES;

    @Test
    void eachLayerUsesOnlyTheLayersBelowIt() {
        layeredArchitecture().consideringOnlyDependenciesInLayers()
            .layer("core")
            .definedBy("dev.codememory.config..")
            .layer("capture")
            .definedBy("dev.codememory.capture..")
            .layer("graduation")
            .definedBy("dev.codememory.readers..", "dev.codememory.processors..", "dev.codememory.writers..")
            .layer("retrieval")
            .definedBy("dev.codememory.retrieval..")
            .layer("application")
            .definedBy("dev.codememory.jobs..")
            .whereLayer("application")
            .mayNotBeAccessedByAnyLayer()
            .whereLayer("retrieval")
            .mayOnlyBeAccessedByLayers("application")
            .whereLayer("graduation")
            .mayOnlyBeAccessedByLayers("retrieval", "application")
            .whereLayer("capture")
            .mayOnlyBeAccessedByLayers("graduation", "retrieval", "application")
            .check(MAIN_CLASSES);
    }

    @Test
    void theGraduationStagesDoNotUseOneAnother() {
        noClasses().that()
            .resideInAPackage("dev.codememory.readers..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("dev.codememory.processors..", "dev.codememory.writers..")
            .check(MAIN_CLASSES);
        noClasses().that()
            .resideInAPackage("dev.codememory.processors..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("dev.codememory.readers..", "dev.codememory.writers..")
            .check(MAIN_CLASSES);
        noClasses().that()
            .resideInAPackage("dev.codememory.writers..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("dev.codememory.readers..", "dev.codememory.processors..")
            .check(MAIN_CLASSES);
    }

    /** The hook runs capture in a process without Spring, DuckDB or a model. */
    @Test
    void captureNeedsOnlyTheJdkAndTheCore() {
        noClasses().that()
            .resideInAPackage("dev.codememory.capture..")
            .should()
            .dependOnClassesThat()
            .resideOutsideOfPackages("dev.codememory.capture..", "dev.codememory.config..", "java..")
            .check(MAIN_CLASSES);
    }

}

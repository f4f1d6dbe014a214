package dev.codememory.jobs;

import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.jobs.runtime.CodeMemoryProperties;
import dev.codememory.jobs.runtime.NativeLibraryCleaner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ConfigurableApplicationContext;

/** The Boot application behind {@code --job=NAME} and {@code serve}. */
@SpringBootApplication
@EnableConfigurationProperties(CodeMemoryProperties.class)
public class CodeMemoryApplication {

    /** Exit code set by the command runner; read after the context closes. */
    static volatile int exitCode = 0;

    public static int run(String[] args) {
        CodeMemoryHome home = CodeMemoryHome.resolve().ensureCreated();
        prepareEnvironment(home);
        try (ConfigurableApplicationContext context = SpringApplication.run(CodeMemoryApplication.class, args)) {
            return SpringApplication.exit(context, () -> exitCode);
        } catch (RuntimeException e) {
            // start-up failed (bad settings, locked metadata): Boot has logged why
            return exitCode != 0 ? exitCode : 1;
        } finally {
            home.restrictPermissions();
        }
    }

    public static void setExitCode(int code) {
        exitCode = code;
    }

    /** Points Spring, SQLite and DuckDB's native extraction at the home before anything reads the settings. */
    static void prepareEnvironment(CodeMemoryHome home) {
        System.setProperty(CodeMemoryHome.PROPERTY, home.root().toString());
        System.setProperty("spring.config.additional-location", "optional:file:" + home.root() + "/");
        CodeMemoryHome.createPrivateDirectory(home.tmp());
        // DuckDB copies its 70 MB native library into java.io.tmpdir on every start and leaks it on kill -9
        System.setProperty("java.io.tmpdir", home.tmp().toString());
        NativeLibraryCleaner.removeStale(home.tmp());
        CodeMemoryHome.createPrivateFile(home.batchMetadata());
    }
}

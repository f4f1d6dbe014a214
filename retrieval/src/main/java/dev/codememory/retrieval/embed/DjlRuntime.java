package dev.codememory.retrieval.embed;

import ai.djl.util.Utils;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The process-wide DJL settings every embedder needs. DJL reads them from system
 * properties (an environment variable of the same name wins): {@code ai.djl.offline}
 * stops every download and the telemetry call home, and {@code DJL_CACHE_DIR} is where
 * the tokenizers and PyTorch natives are unpacked (15 MB and ~430 MB) and where
 * {@code ENGINE_CACHE_DIR} falls back to when unset. Without a cache directory DJL uses
 * {@code ~/.djl.ai}.
 */
final class DjlRuntime {

    static final String OFFLINE = "ai.djl.offline";
    static final String CACHE_DIR = "DJL_CACHE_DIR";
    static final String DEFAULT_ENGINE = "ai.djl.default_engine";
    static final String ONNX_ALTERNATIVE_OFF = "ai.djl.onnx.disable_alternative";

    private static final Logger log = LoggerFactory.getLogger(DjlRuntime.class);

    private DjlRuntime() {
    }

    /**
     * Switches DJL offline and, when {@code cacheDir} is not null, points its cache there
     * (created if missing).
     */
    static synchronized void configure(Path cacheDir) {
        System.setProperty(OFFLINE, "true");
        // the default engine is the highest-ranked one on the classpath (PyTorch, whose
        // start-up costs ~0.4 s and
        // probes for CUDA); the embedders name their engine, so nothing needs the default
        // to be PyTorch
        if (System.getProperty(DEFAULT_ENGINE) == null && System.getenv("DJL_DEFAULT_ENGINE") == null) {
            System.setProperty(DEFAULT_ENGINE, "OnnxRuntime");
        }
        // ONNX Runtime's NDArrays are few, so DJL pairs it with a "full" engine found on
        // the classpath and creates every
        // NDArray there: our ONNX embedder only creates its int64 inputs (pooling is
        // plain Java), yet that loaded
        // all of PyTorch (libtorch, and a CUDA probe) into the process and copied each
        // batch across engines. The
        // TorchScript embedder uses PyTorch as its own engine and is not affected. An
        // explicit setting wins.
        if (System.getProperty(ONNX_ALTERNATIVE_OFF) == null) {
            System.setProperty(ONNX_ALTERNATIVE_OFF, "true");
        }
        if (!Utils.isOfflineMode()) {
            log.warn("DJL is not offline: the environment variable DJL_OFFLINE overrides {}", OFFLINE);
        }
        if (cacheDir != null) {
            try {
                Files.createDirectories(cacheDir);
            }
            catch (IOException e) {
                throw new UncheckedIOException("cannot create the DJL cache directory " + cacheDir, e);
            }
            System.setProperty(CACHE_DIR, cacheDir.toAbsolutePath().toString());
            if (System.getenv(CACHE_DIR) != null) {
                log.warn("the environment variable {} overrides the configured DJL cache directory", CACHE_DIR);
            }
        }
    }

}

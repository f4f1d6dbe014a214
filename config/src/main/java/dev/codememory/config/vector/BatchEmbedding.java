package dev.codememory.config.vector;

import java.util.List;

/**
 * Texts in, unit vectors out, in the same order (the embedders in processors provide it).
 */
@FunctionalInterface
public interface BatchEmbedding {

    float[][] embed(List<String> texts);

}

package dev.codememory.retrieval.embed;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.AbstractBlock;
import ai.djl.nn.core.Linear;
import ai.djl.nn.transformer.IdEmbedding;
import ai.djl.training.ParameterStore;
import ai.djl.util.PairList;

/**
 * A stand-in for a sentence encoder, built from DJL blocks because no TorchScript file
 * can be made offline: token ids → 16-d embedding → linear to {@code dimension}, output
 * {@code last_hidden_state [batch, tokens, dimension]}. Takes {@code input_ids} and
 * {@code attention_mask} and ignores the mask, like a real encoder's interface.
 */
final class ToyEncoder extends AbstractBlock {

    private static final int HIDDEN = 16;

    private final int dimension;

    private final IdEmbedding tokens;

    private final Linear projection;

    ToyEncoder(int vocabulary, int dimension) {
        this.dimension = dimension;
        this.tokens = addChildBlock("tokens",
                new IdEmbedding.Builder().setDictionarySize(vocabulary).setEmbeddingSize(HIDDEN).build());
        this.projection = addChildBlock("projection", Linear.builder().setUnits(dimension).build());
    }

    @Override
    protected NDList forwardInternal(ParameterStore parameterStore, NDList inputs, boolean training,
            PairList<String, Object> params) {
        NDList embedded = tokens.forward(parameterStore, new NDList(inputs.head()), training);
        NDArray states = projection.forward(parameterStore, embedded, training).head();
        states.setName("last_hidden_state");
        return new NDList(states);
    }

    @Override
    public Shape[] getOutputShapes(Shape[] inputShapes) {
        Shape ids = inputShapes[0];
        return new Shape[] { new Shape(ids.get(0), ids.get(1), dimension) };
    }

    @Override
    protected void initializeChildBlocks(NDManager manager, DataType dataType, Shape... inputShapes) {
        tokens.initialize(manager, dataType, inputShapes[0]);
        projection.initialize(manager, dataType, tokens.getOutputShapes(new Shape[] { inputShapes[0] }));
    }

}

package dev.sparseprof.model;

import java.lang.foreign.Arena;
import java.util.List;
import java.util.Map;

/**
 * A loaded model: every tensor the file holds, the weights that act as GEMMs (or gathers), and
 * the file's free-form metadata (safetensors {@code __metadata__}, ONNX producer, ...).
 *
 * <p>The tensors' data may be memory-mapped through {@code arena}; {@link #close()} unmaps it, after
 * which no tensor of this model may be read.
 */
public record Model(String source, String format, List<Tensor> tensors, List<GemmLayer> layers,
                    Map<String, String> metadata, Arena arena) implements AutoCloseable {
    public Model {
        tensors = List.copyOf(tensors);
        layers = List.copyOf(layers);
        metadata = Map.copyOf(metadata);
    }

    @Override
    public void close() {
        if (arena != null) arena.close();
    }
}

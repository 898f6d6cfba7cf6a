package dev.sparseprof.model;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** One NumPy array ({@code .npy}), named after the file; layers by {@link TensorLayers}' PyTorch rule. */
final class NpyReader implements ModelReader {
    @Override
    public String name() {
        return "npy";
    }

    @Override
    public boolean accepts(Path file) {
        return ModelFiles.nameEndsWith(file, ".npy");
    }

    @Override
    public Model read(Path file) {
        String stem = file.getFileName().toString().replaceFirst("(?i)\\.npy$", "");
        return ModelFiles.inArena(arena -> {
            Tensor t = NpyFormat.parse(file.toString(), stem, ModelFiles.map(file, arena), arena);
            return new Model(file.toString(), "npy", List.of(t), TensorLayers.of(List.of(t)), Map.of("format", "npy"), arena);
        });
    }
}

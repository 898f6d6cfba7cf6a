package dev.sparseprof.model;

import java.lang.foreign.Arena;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** One NumPy array ({@code .npy}), named after the file; layers by {@link TensorLayers}' PyTorch rule. */
final class NpyReader implements ModelReader {
    @Override
    public String name() {
        return "npy";
    }

    @Override
    public boolean accepts(Path file) {
        return file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".npy");
    }

    @Override
    public Model read(Path file) {
        Arena arena = Arena.ofShared();
        try {
            String stem = file.getFileName().toString().replaceFirst("(?i)\\.npy$", "");
            Tensor t = NpyFormat.parse(file.toString(), stem, ModelFiles.map(file, arena), arena);
            return new Model(file.toString(), "npy", List.of(t), TensorLayers.of(List.of(t)), Map.of("format", "npy"), arena);
        } catch (RuntimeException e) {
            arena.close();
            throw e;
        }
    }
}

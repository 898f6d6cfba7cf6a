package dev.sparseprof.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The layer rule for formats that hold bare tensors (safetensors, npy/npz, Matrix Market), which
 * follow PyTorch's storage order: every 2-D floating-point tensor is a {@link LayerKind#LINEAR}
 * weight stored {@code [out, in]} (A as stored), or an {@link LayerKind#EMBEDDING_GATHER} when its
 * name contains {@code embed}; a 3-D to 5-D floating-point tensor is a convolution weight
 * {@code [out, in, k...]}, im2col's {@code [out, in·k...]} as stored, with N per sample 1 (the
 * file does not say the output size); 1-D tensors (biases, norms) and integer tensors are not layers.
 */
final class TensorLayers {
    private TensorLayers() {}

    static List<GemmLayer> of(List<Tensor> tensors) {
        List<GemmLayer> layers = new ArrayList<>();
        for (Tensor t : tensors) {
            GemmLayer l = of(t);
            if (l != null) layers.add(l);
        }
        return layers;
    }

    static GemmLayer of(Tensor t) {
        if (!t.dtype().isFloatingPoint() || t.rank() < 2 || t.rank() > 5 || t.elementCount() == 0) return null;
        long rows = t.dim(0);
        long cols = t.elementCount() / rows;
        if (rows > Integer.MAX_VALUE || cols > Integer.MAX_VALUE) return null;
        LayerKind kind = t.rank() > 2 ? LayerKind.CONV
                : t.name().toLowerCase(Locale.ROOT).contains("embed") ? LayerKind.EMBEDDING_GATHER : LayerKind.LINEAR;
        TensorMatrix view = TensorMatrix.rowMajor(t, (int) rows, (int) cols);
        return new GemmLayer(t.name(), t.name(), kind, (int) rows, (int) cols, 1, view);
    }
}

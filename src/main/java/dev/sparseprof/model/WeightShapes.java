package dev.sparseprof.model;

import java.util.Locale;

/**
 * The PyTorch-order shape of a layer's weight, {@code [out, in]} for linear layers and
 * {@code [out, in/groups, k...]} for convolutions, whose C-order elements are exactly the layer's
 * matrix A row by row. Writers use it so that a file re-read with {@link TensorLayers}' rule gives
 * the same layers: a TF.js {@code [kh, kw, in, out]} filter becomes {@code [out, in, kh, kw]}, a
 * depthwise {@code [kh, kw, in, mult]} one {@code [in·mult, 1, kh, kw]}.
 */
public final class WeightShapes {
    private WeightShapes() {}

    public static long[] pytorchOrder(Model model, GemmLayer layer) {
        long[] matrix = {layer.rows(), layer.cols()};
        if (layer.kind() != LayerKind.CONV) return matrix;
        Tensor t = null;
        for (Tensor candidate : model.tensors()) {
            if (candidate.name().equals(layer.tensorName())) t = candidate;
        }
        if (t == null || t.rank() < 3) return new long[] {layer.rows(), layer.cols(), 1, 1};
        long[] s = t.shape();
        if (!model.format().equals("tfjs")) return s;
        boolean depthwise = layer.rows() == s[2] * s[3] && layer.cols() == s[0] * s[1] && layer.matrix() instanceof TensorMatrix m
                && !m.isRowMajor() && layer.name().toLowerCase(Locale.ROOT).contains("depthwise");
        return depthwise ? new long[] {s[2] * s[3], 1, s[0], s[1]} : new long[] {s[3], s[2], s[0], s[1]};
    }
}

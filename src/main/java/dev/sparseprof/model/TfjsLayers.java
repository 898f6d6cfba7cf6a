package dev.sparseprof.model;

import dev.sparseprof.util.DType;
import java.util.Locale;

/**
 * The layer rule for TF.js weights, which follow TF's storage order: 2-D {@code [in, out]} Dense
 * kernels are LINEAR (read transposed); 4-D {@code [kh, kw, in, out]} filters are CONV as
 * {@code [out, in·kh·kw]} (columns in PyTorch's {@code (in, kh, kw)} order); depthwise filters
 * {@code [kh, kw, in, multiplier]} (named {@code *depthwise*}) are CONV as
 * {@code [in·multiplier, kh·kw]}; 1-D and scalar tensors are not layers.
 */
final class TfjsLayers {
    private TfjsLayers() {}

    /** The layer {@code t} is, or null. */
    static GemmLayer of(Tensor t) {
        if (t.dtype() != DType.F32 || t.elementCount() == 0) return null;
        long[] s = t.shape();
        if (s.length == 2) {
            if (s[0] > Integer.MAX_VALUE || s[1] > Integer.MAX_VALUE) return null;
            TensorMatrix v = TensorMatrix.transposed(t, (int) s[1], (int) s[0]);
            return new GemmLayer(t.name(), t.name(), LayerKind.LINEAR, v.rows(), v.cols(), 1, v);
        }
        if (s.length != 4) return null;
        long kh = s[0];
        long kw = s[1];
        long in = s[2];
        long out = s[3];
        TensorMatrix v;
        if (t.name().toLowerCase(Locale.ROOT).contains("depthwise")) {
            // [kh, kw, in, mult]: row c*mult+m is contiguous at the last two axes.
            v = TensorMatrix.strided(t, (int) (in * out), (int) (kh * kw), 1, new long[] {kh, kw}, new long[] {kw * in * out, in * out});
        } else {
            v = TensorMatrix.strided(t, (int) out, (int) (in * kh * kw), 1, new long[] {in, kh, kw},
                    new long[] {out, kw * in * out, in * out});
        }
        return new GemmLayer(t.name(), t.name(), LayerKind.CONV, v.rows(), v.cols(), 1, v);
    }
}

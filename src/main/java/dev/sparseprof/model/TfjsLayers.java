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
        return of(t, t.dtype(), 1);
    }

    /**
     * The layer {@code t} is, or null; {@code stored} is its dtype in the file (uint8 for a quantized
     * weight that was decoded to fp32), {@code pixels} its N per sample (1 when unknown). Depthwise
     * filters are {@code in} groups of {@code mult} rows over K = kh·kw, flagged depthwise.
     */
    static GemmLayer of(Tensor t, DType stored, long pixels) {
        if (t.dtype() != DType.F32 || t.elementCount() == 0) return null;
        long[] s = t.shape();
        if (s.length == 2) {
            if (s[0] > Integer.MAX_VALUE || s[1] > Integer.MAX_VALUE) return null;
            TensorMatrix v = TensorMatrix.transposed(t, (int) s[1], (int) s[0]);
            return new GemmLayer(t.name(), t.name(), LayerKind.LINEAR, v.rows(), v.cols(), 1, v, 1, false, stored);
        }
        if (s.length != 4) return null;
        long kh = s[0];
        long kw = s[1];
        long in = s[2];
        long out = s[3];
        TensorMatrix v;
        boolean depthwise = t.name().toLowerCase(Locale.ROOT).contains("depthwise");
        if (depthwise) {
            // [kh, kw, in, mult]: row c*mult+m is contiguous at the last two axes.
            v = TensorMatrix.strided(t, (int) (in * out), (int) (kh * kw), 1, new long[] {kh, kw}, new long[] {kw * in * out, in * out});
        } else {
            v = TensorMatrix.strided(t, (int) out, (int) (in * kh * kw), 1, new long[] {in, kh, kw},
                    new long[] {out, kw * in * out, in * out});
        }
        int groups = depthwise && in > 1 ? (int) in : 1;
        return new GemmLayer(t.name(), t.name(), LayerKind.CONV, v.rows(), v.cols(), Math.max(1, pixels), v, groups, depthwise, stored);
    }
}

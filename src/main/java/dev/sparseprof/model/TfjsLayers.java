package dev.sparseprof.model;

import dev.sparseprof.util.DType;
import java.util.Locale;

/**
 * The layer rule for TF.js weights, which follow TF's storage order: 2-D {@code [in, out]} Dense
 * kernels are LINEAR (read transposed); 4-D {@code [kh, kw, in, out]} filters are CONV as
 * {@code [out, in·kh·kw]} (columns in PyTorch's {@code (in, kh, kw)} order); depthwise filters
 * {@code [kh, kw, in, multiplier]} (named {@code *depthwise*}) are CONV as
 * {@code [in·multiplier, kh·kw]}; 1-D and scalar tensors are not layers. A graph model says what
 * each weight is by the op it feeds ({@link TfjsGraph}); then only those weights are layers, with
 * two more shapes: a transposed convolution's {@code [kh, kw, out, in]} filter, read as the GEMM
 * {@code [(kh, kw, out), in]} before col2im (as ONNX's ConvTranspose, {@code OnnxLayers}), and a
 * MatMul weight stored {@code [out, in]}.
 */
final class TfjsLayers {
    private TfjsLayers() {}

    /** The layer {@code t} is, or null. */
    static GemmLayer of(Tensor t) {
        return of(t, t.dtype(), 1);
    }

    /**
     * The layer {@code t} is by its rank and name, or null; {@code stored} is its dtype in the file
     * (uint8 for a quantized weight that was decoded to fp32), {@code pixels} its N per sample (1
     * when unknown).
     */
    static GemmLayer of(Tensor t, DType stored, long pixels) {
        int rank = t.shape().length;
        TfjsGraph.Use use = rank == 2 ? TfjsGraph.Use.LINEAR_IN_OUT
                : rank != 4 ? null
                : t.name().toLowerCase(Locale.ROOT).contains("depthwise") ? TfjsGraph.Use.DEPTHWISE : TfjsGraph.Use.CONV;
        return of(t, stored, pixels, use, t.name());
    }

    /**
     * The layer {@code t} is as {@code use} reads it, or null (no use, not fp32 after decoding, or a
     * rank the use does not take). Depthwise filters are {@code in} groups of {@code mult} rows over
     * K = kh·kw, flagged depthwise. {@code name}: the layer's readable name.
     */
    static GemmLayer of(Tensor t, DType stored, long pixels, TfjsGraph.Use use, String name) {
        if (use == null || t.dtype() != DType.F32 || t.elementCount() == 0) return null;
        long[] s = t.shape();
        boolean linear = use == TfjsGraph.Use.LINEAR_IN_OUT || use == TfjsGraph.Use.LINEAR_OUT_IN;
        if (s.length != (linear ? 2 : 4)) return null;
        for (long d : s) if (d > Integer.MAX_VALUE) return null;
        if (linear) {
            TensorMatrix v = use == TfjsGraph.Use.LINEAR_IN_OUT ? TensorMatrix.transposed(t, (int) s[1], (int) s[0])
                    : TensorMatrix.rowMajor(t, (int) s[0], (int) s[1]);
            return new GemmLayer(name, t.name(), LayerKind.LINEAR, v.rows(), v.cols(), 1, v, 1, false, stored);
        }
        long kh = s[0];
        long kw = s[1];
        long in = s[2];
        long out = s[3];
        if (kh * kw * in * out > Integer.MAX_VALUE) return null;
        TensorMatrix v = switch (use) {
            // [kh, kw, in, mult]: row c*mult+m is contiguous at the last two axes.
            case DEPTHWISE -> TensorMatrix.strided(t, (int) (in * out), (int) (kh * kw), 1, new long[] {kh, kw}, new long[] {kw * in * out, in * out});
            // [kh, kw, out, in] (s[2] its output channels, s[3] its input's): row (i, j, c_out) is a C-order row
            case TRANSPOSED_CONV -> TensorMatrix.rowMajor(t, (int) (kh * kw * s[2]), (int) s[3]);
            default -> TensorMatrix.strided(t, (int) out, (int) (in * kh * kw), 1, new long[] {in, kh, kw},
                    new long[] {out, kw * in * out, in * out});
        };
        boolean depthwise = use == TfjsGraph.Use.DEPTHWISE;
        int groups = depthwise && in > 1 ? (int) in : 1;
        return new GemmLayer(name, t.name(), LayerKind.CONV, v.rows(), v.cols(), Math.max(1, pixels), v, groups, depthwise, stored);
    }
}

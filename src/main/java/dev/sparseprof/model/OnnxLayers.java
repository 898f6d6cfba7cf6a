package dev.sparseprof.model;

import dev.sparseprof.util.DType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Finds the GEMM layers of an ONNX graph from the nodes that consume weights:
 * <ul>
 * <li>{@code MatMul(X, W)} and {@code MatMulInteger}: W is stored {@code [in, out]}, the transpose of
 * A, so rows = out features and the view reads transposed;</li>
 * <li>{@code Gemm}: {@code transB=1} stores B as {@code [out, in]} (row-major A), else {@code [in, out]};</li>
 * <li>{@code Conv}/{@code ConvInteger}: {@code [out, in/groups, kh, kw]} is im2col's
 * {@code [out, in/groups·kh·kw]} as stored; N per sample = output pixels when the output shape is
 * known (from {@code value_info} or {@link OnnxShapes}), else 1;</li>
 * <li>{@code Gather} on a 2-D float or quantized weight: an embedding, {@link LayerKind#EMBEDDING_GATHER}.</li>
 * </ul>
 * A weight consumed twice (tied embeddings) is listed once, at its first consumer. Quantized weights
 * take their scale and zero point from a {@code DequantizeLinear} applied to them, from
 * MatMulInteger's {@code b_zero_point} input, or by the ONNX Runtime naming convention
 * ({@code W_quantized}, {@code W_scale}, {@code W_zero_point}); they are also put into the model's
 * {@link Tensor} when one zero point serves the whole tensor. {@code tensors} is updated in place.
 */
final class OnnxLayers {
    private final OnnxGraph graph;
    private final Map<String, Tensor> tensors;
    private final Map<String, long[]> shapes;
    private final Map<String, OnnxNode> dequantizers = new HashMap<>();

    private OnnxLayers(OnnxGraph graph, Map<String, Tensor> tensors) {
        this.graph = graph;
        this.tensors = tensors;
        this.shapes = OnnxShapes.infer(graph, tensors);
        for (OnnxNode n : graph.nodes()) {
            if (n.opType().equals("DequantizeLinear")) dequantizers.putIfAbsent(n.input(0), n);
        }
    }

    static List<GemmLayer> find(OnnxGraph graph, Map<String, Tensor> tensors) {
        return new OnnxLayers(graph, tensors).find();
    }

    private List<GemmLayer> find() {
        List<GemmLayer> layers = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (OnnxNode node : graph.nodes()) {
            GemmLayer layer = layerOf(node);
            if (layer != null && seen.add(layer.tensorName())) layers.add(layer);
        }
        return layers;
    }

    private GemmLayer layerOf(OnnxNode node) {
        return switch (node.opType()) {
            case "MatMul", "MatMulInteger" -> matMul(node);
            case "Gemm" -> gemm(node);
            case "Conv", "ConvInteger" -> conv(node);
            case "Gather" -> gather(node);
            default -> null;
        };
    }

    private GemmLayer matMul(OnnxNode node) {
        Tensor b = weight(node.input(1), 2);
        if (b != null) {
            // Y[tokens, out] = X[tokens, in] · W[in, out]: A = W^T.
            TensorMatrix view = TensorMatrix.transposed(b, dim(b, 1), dim(b, 0));
            return layer(node, b, LayerKind.LINEAR, quantized(node, b, view, 3), 1);
        }
        Tensor a = weight(node.input(0), 2);
        if (a == null) return null;
        // Y = W[out, in] · X[in, N]: W is A as stored.
        return layer(node, a, LayerKind.LINEAR, quantized(node, a, TensorMatrix.rowMajor(a, dim(a, 0), dim(a, 1)), 2), 1);
    }

    private GemmLayer gemm(OnnxNode node) {
        Tensor b = weight(node.input(1), 2);
        if (b != null) {
            boolean transB = node.intAttribute("transB", 0) != 0;
            TensorMatrix view = transB ? TensorMatrix.rowMajor(b, dim(b, 0), dim(b, 1)) : TensorMatrix.transposed(b, dim(b, 1), dim(b, 0));
            return layer(node, b, LayerKind.LINEAR, quantized(node, b, view, -1), 1);
        }
        Tensor a = weight(node.input(0), 2);
        if (a == null) return null;
        boolean transA = node.intAttribute("transA", 0) != 0;
        TensorMatrix view = transA ? TensorMatrix.transposed(a, dim(a, 1), dim(a, 0)) : TensorMatrix.rowMajor(a, dim(a, 0), dim(a, 1));
        return layer(node, a, LayerKind.LINEAR, quantized(node, a, view, -1), 1);
    }

    private GemmLayer conv(OnnxNode node) {
        Tensor w = weight(node.input(1), -1);
        if (w == null || w.rank() < 3) return null;
        int rows = dim(w, 0);
        long cols = w.elementCount() / Math.max(1, w.dim(0));
        if (cols > Integer.MAX_VALUE) return null;
        long pixels = 1;
        long[] out = node.outputs().isEmpty() ? null : shapes.get(node.outputs().get(0));
        if (out != null && out.length == w.rank()) {
            for (int i = 2; i < out.length; i++) pixels = out[i] > 0 && pixels > 0 ? pixels * out[i] : -1;
        }
        TensorMatrix view = TensorMatrix.rowMajor(w, rows, (int) cols);
        return layer(node, w, LayerKind.CONV, quantized(node, w, view, 3), pixels > 0 ? pixels : 1);
    }

    private GemmLayer gather(OnnxNode node) {
        Tensor table = weight(node.input(0), 2);
        if (table == null) return null;
        TensorMatrix view = TensorMatrix.rowMajor(table, dim(table, 0), dim(table, 1));
        return layer(node, table, LayerKind.EMBEDDING_GATHER, quantized(node, table, view, -1), 1);
    }

    /** A weight tensor of this rank (-1: any) and a type a GEMM multiplies, or null. */
    private Tensor weight(String name, int rank) {
        Tensor t = tensors.get(name);
        if (t == null || (rank >= 0 && t.rank() != rank) || t.elementCount() == 0) return null;
        DType d = t.dtype();
        boolean ok = d.isFloatingPoint() || d == DType.I8 || d == DType.U8;
        if (!ok) return null;
        for (long dim : t.shape()) if (dim > Integer.MAX_VALUE) return null;
        return t;
    }

    /**
     * Attaches the quantization of an integer weight: {@code zeroPointInput} is the node's input
     * holding the weight's zero point (-1: none). A per-channel vector runs along the output
     * channels (MatMul's stored last axis, Conv's first), which are A's rows either way.
     */
    private TensorMatrix quantized(OnnxNode node, Tensor w, TensorMatrix view, int zeroPointInput) {
        if (w.dtype().isFloatingPoint()) return view;
        String scaleName = null;
        String zeroName = null;
        OnnxNode dq = dequantizers.get(w.name());
        if (dq != null) {
            scaleName = dq.input(1);
            zeroName = dq.input(2);
        } else if (w.name().endsWith("_quantized")) {
            String base = w.name().substring(0, w.name().length() - "_quantized".length());
            scaleName = base + "_scale";
            zeroName = base + "_zero_point";
        }
        if (zeroPointInput >= 0 && !node.input(zeroPointInput).isEmpty()) zeroName = node.input(zeroPointInput);
        Tensor scale = scaleName == null ? null : tensors.get(scaleName);
        Tensor zero = zeroName == null ? null : tensors.get(zeroName);
        int rows = view.rows();
        if (!perRow(scale, rows, true) || !perRow(zero, rows, false) || (scale == null && zero == null)) return view;
        float[] scales = new float[rows];
        long[] zeros = new long[rows];
        for (int r = 0; r < rows; r++) {
            scales[r] = scale == null ? 1.0f : scale.getFloat(scale.elementCount() == 1 ? 0 : r);
            zeros[r] = zero == null ? 0 : zero.rawLong(zero.elementCount() == 1 ? 0 : r);
        }
        carryInTensor(w, scales, zeros);
        return view.withRowQuantization(new RowQuantization(scales, zeros));
    }

    /**
     * Puts the quantization into the model's tensor too, when one zero point serves the whole
     * tensor, so that {@link Tensor#isZero} is exact: the scale as well when it is per tensor, else
     * 1 (per-channel values are the layer view's to decode).
     */
    private void carryInTensor(Tensor w, float[] scales, long[] zeros) {
        for (long z : zeros) if (z != zeros[0]) return;
        boolean perTensorScale = true;
        for (float f : scales) if (f != scales[0]) perTensorScale = false;
        tensors.put(w.name(), new Tensor(w.name(), w.dtype(), w.shape(), w.data(), perTensorScale ? scales[0] : 1.0, zeros[0]));
    }

    /** True when {@code t} is absent, a scalar or one value per row (a float scale, an integer zero point). */
    private static boolean perRow(Tensor t, int rows, boolean isScale) {
        if (t == null) return true;
        long n = t.elementCount();
        return (n == 1 || n == rows) && t.dtype().isFloatingPoint() == isScale;
    }

    private GemmLayer layer(OnnxNode node, Tensor w, LayerKind kind, TensorMatrix view, long columnsPerSample) {
        return new GemmLayer(layerName(node, w.name()), w.name(), kind, view.rows(), view.cols(), columnsPerSample, view);
    }

    /** The tensor's name when it means something, else the consuming node's. */
    static String layerName(OnnxNode node, String tensorName) {
        boolean anonymous = tensorName.isEmpty() || tensorName.startsWith("onnx::") || tensorName.chars().allMatch(Character::isDigit);
        return anonymous ? node.displayName() : tensorName;
    }

    private static int dim(Tensor t, int i) {
        return (int) t.dim(i);
    }
}

package dev.sparseprof.model;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A small static shape propagation for convolutional graphs, so that a Conv layer's N per sample
 * (its output pixels) is known even when the exporter wrote no {@code value_info} or declared
 * dynamic dimensions: shapes start from the graph's declared inputs, outputs and value infos, with
 * the {@code --input-shape} given ones replacing the declared inputs, and flow through
 * {@code Conv}, {@code ConvInteger}, {@code ConvTranspose}, {@code MaxPool}, {@code AveragePool}
 * by the ONNX output-size formulas (explicit {@code pads}; {@code auto_pad} SAME keeps
 * {@code ceil(in/stride)}, or {@code in·stride} for ConvTranspose), global pools, {@code Concat},
 * {@code Resize}/{@code Upsample} with constant scales or sizes, and element-wise operators
 * (broadcasting: the larger operand's shape). Anything else ends the trail (the shape stays unknown).
 * A declared shape with a dynamic (-1) dimension is replaced by a propagated static one.
 */
final class OnnxShapes {
    private static final Set<String> SAME_SHAPE = Set.of("Relu", "LeakyRelu", "Sigmoid", "Tanh", "Clip", "HardSigmoid",
            "HardSwish", "Elu", "Selu", "PRelu", "Softplus", "BatchNormalization", "InstanceNormalization", "Identity",
            "Dropout", "Add", "Sub", "Mul", "Div", "Cast", "QuantizeLinear", "DequantizeLinear", "DynamicQuantizeLinear", "Neg", "Abs", "Mish", "Gelu",
            "Pow", "Sqrt", "Exp", "Max", "Min", "Softmax", "LRN");

    private OnnxShapes() {}

    /**
     * Value name to shape ({@code -1} for unknown dimensions), declared ones first.
     * {@code given} (from {@code --input-shape}) must name graph inputs that are not initializers,
     * with the declared rank and any declared static dimension; otherwise a one-line error.
     */
    static Map<String, long[]> infer(String source, OnnxGraph graph, Map<String, Tensor> tensors, Map<String, long[]> given) {
        Map<String, long[]> shapes = new HashMap<>(graph.valueShapes());
        Set<String> inputs = new HashSet<>();
        for (String in : graph.inputs()) if (!tensors.containsKey(in)) inputs.add(in);
        for (Map.Entry<String, long[]> e : given.entrySet()) {
            String name = e.getKey();
            long[] dims = e.getValue();
            if (!inputs.contains(name)) {
                throw ModelFormatException.in(source, "--input-shape names '" + name + "', which is not an input of the graph (inputs: "
                        + String.join(", ", graph.inputs().stream().filter(inputs::contains).toList()) + ")");
            }
            long[] declared = graph.valueShapes().get(name);
            if (declared != null && declared.length > 0) {
                if (declared.length != dims.length) {
                    throw ModelFormatException.in(source, "--input-shape " + name + "=" + dimsText(dims) + " has rank " + dims.length
                            + ", the graph declares " + dimsText(declared));
                }
                for (int i = 0; i < dims.length; i++) {
                    if (declared[i] > 0 && declared[i] != dims[i]) {
                        throw ModelFormatException.in(source, "--input-shape " + name + "=" + dimsText(dims) + " disagrees with the declared "
                                + dimsText(declared) + " at axis " + i);
                    }
                }
            }
            shapes.put(name, dims.clone());
        }
        // a weight behind a DequantizeLinear (QDQ models) has the stored integer tensor's shape
        Map<String, Tensor> weights = new HashMap<>(tensors);
        graph.dequantized(tensors).forEach(weights::putIfAbsent);
        for (OnnxNode node : graph.nodes()) {
            if (node.outputs().isEmpty() || isStatic(shapes.get(node.outputs().get(0)))) continue;
            long[] out = output(node, shapes, weights);
            if (out != null) shapes.put(node.outputs().get(0), out);
        }
        return shapes;
    }

    private static long[] output(OnnxNode node, Map<String, long[]> shapes, Map<String, Tensor> tensors) {
        long[] in = shapes.get(node.input(0));
        String op = node.opType();
        if (op.equals("Concat")) return concat(node, shapes);
        if (SAME_SHAPE.contains(op)) return broadcast(in, shapes.get(node.input(1)));
        switch (op) {
            case "Gather" -> {
                return gather(node, shapes, tensors);
            }
            case "Transpose" -> {
                return transpose(node, in);
            }
            case "Squeeze", "Unsqueeze" -> {
                return isStatic(in) ? squeezed(node, in, tensors) : null;
            }
            case "LSTM", "GRU", "RNN" -> {
                // Y [seq, dirs, batch, hidden] (layout 0) or [batch, seq, dirs, hidden] (layout 1) from X [seq, batch, in]
                if (!isStatic(in) || in.length != 3) return null;
                long hidden = node.intAttribute("hidden_size", -1);
                long dirs = node.stringAttribute("direction", "forward").equals("bidirectional") ? 2 : 1;
                if (hidden <= 0) return null;
                return node.intAttribute("layout", 0) == 0 ? new long[] {in[0], dirs, in[1], hidden} : new long[] {in[0], in[1], dirs, hidden};
            }
            default -> { }
        }
        if (!isStatic(in) || in.length < 3) return null;
        return switch (op) {
            case "Conv", "ConvInteger", "QLinearConv" -> {
                Tensor w = tensors.get(node.input(op.equals("QLinearConv") ? 3 : 1));
                if (w == null || w.rank() != in.length) yield null;
                yield window(node, in, w.dim(0), spatial(w.shape()));
            }
            case "ConvTranspose" -> {
                Tensor w = tensors.get(node.input(1));
                if (w == null || w.rank() != in.length) yield null;
                yield transposed(node, in, w.dim(1) * Math.max(1, node.intAttribute("group", 1)), spatial(w.shape()));
            }
            case "MaxPool", "AveragePool" -> window(node, in, in[1], node.intsAttribute("kernel_shape"));
            case "GlobalAveragePool", "GlobalMaxPool" -> {
                long[] out = in.clone();
                for (int i = 2; i < out.length; i++) out[i] = 1;
                yield out;
            }
            case "Resize", "Upsample" -> resize(node, in, tensors);
            default -> null;
        };
    }

    /** {@code Gather(data, indices, axis)}: data's dims before the axis, the indices' dims, data's after it (an embedding: [B, S, E]). */
    private static long[] gather(OnnxNode node, Map<String, long[]> shapes, Map<String, Tensor> tensors) {
        Tensor table = tensors.get(node.input(0));
        long[] data = table != null ? table.shape() : shapes.get(node.input(0));
        Tensor constIndices = tensors.get(node.input(1));
        long[] indices = constIndices != null ? constIndices.shape() : shapes.get(node.input(1));
        if (!isStatic(data) || indices == null || (indices.length > 0 && !isStatic(indices))) return null;
        long axis = node.intAttribute("axis", 0);
        if (axis < 0) axis += data.length;
        if (axis < 0 || axis >= data.length) return null;
        long[] out = new long[data.length - 1 + indices.length];
        int at = 0;
        for (int i = 0; i < axis; i++) out[at++] = data[i];
        for (long d : indices) out[at++] = d;
        for (int i = (int) axis + 1; i < data.length; i++) out[at++] = data[i];
        return out;
    }

    /** {@code Transpose} by its {@code perm} (absent: reversed). */
    private static long[] transpose(OnnxNode node, long[] in) {
        if (!isStatic(in)) return null;
        long[] perm = node.intsAttribute("perm");
        long[] out = new long[in.length];
        if (perm.length == 0) {
            for (int i = 0; i < in.length; i++) out[i] = in[in.length - 1 - i];
            return out;
        }
        if (perm.length != in.length) return null;
        boolean[] used = new boolean[in.length];
        for (int i = 0; i < perm.length; i++) {
            if (perm[i] < 0 || perm[i] >= in.length || used[(int) perm[i]]) return null;
            used[(int) perm[i]] = true;
            out[i] = in[(int) perm[i]];
        }
        return out;
    }

    /** {@code Squeeze}/{@code Unsqueeze} with axes from the attribute (opset < 13) or a constant input; null when not constant. */
    static long[] squeezed(OnnxNode node, long[] in, Map<String, Tensor> tensors) {
        Tensor axesTensor = node.inputs().size() > 1 ? tensors.get(node.input(1)) : null;
        long[] axes = axesTensor != null ? axesTensor.smallInts(16) : node.inputs().size() > 1 ? null : node.intsAttribute("axes");
        if (axes == null) return null;
        boolean unsqueeze = node.opType().equals("Unsqueeze");
        int rank = unsqueeze ? in.length + axes.length : in.length;
        boolean[] marked = new boolean[rank];
        for (long a : axes) {
            long at = a < 0 ? a + rank : a;
            if (at < 0 || at >= rank || marked[(int) at] || (!unsqueeze && in[(int) at] != 1)) return null;
            marked[(int) at] = true;
        }
        if (!unsqueeze && axes.length == 0) for (int i = 0; i < in.length; i++) marked[i] = in[i] == 1;
        List<Long> out = new ArrayList<>();
        for (int i = 0, j = 0; i < rank; i++) {
            if (unsqueeze) out.add(marked[i] ? 1L : in[j++]);
            else if (!marked[i]) out.add(in[i]);
        }
        return out.stream().mapToLong(Long::longValue).toArray();
    }

    static boolean isStatic(long[] shape) {
        if (shape == null) return false;
        for (long d : shape) if (d <= 0) return false;
        return true;
    }

    private static long[] broadcast(long[] a, long[] b) {
        if (!isStatic(a)) return isStatic(b) && b.length >= 3 ? b : null;
        if (!isStatic(b) || b.length < a.length) return a;
        if (b.length > a.length) return b;
        long[] out = a.clone();
        for (int i = 0; i < out.length; i++) out[i] = Math.max(a[i], b[i]);
        return out;
    }

    private static long[] concat(OnnxNode node, Map<String, long[]> shapes) {
        long[] first = shapes.get(node.input(0));
        if (!isStatic(first)) return null;
        int axis = (int) node.intAttribute("axis", 0);
        if (axis < 0) axis += first.length;
        if (axis < 0 || axis >= first.length) return null;
        long[] out = first.clone();
        out[axis] = 0;
        for (String name : node.inputs()) {
            long[] s = shapes.get(name);
            if (!isStatic(s) || s.length != first.length) return null;
            out[axis] += s[axis];
        }
        return out;
    }

    /** {@code Resize(X, roi, scales, sizes)} / {@code Upsample(X, scales)} with constant scales or sizes. */
    private static long[] resize(OnnxNode node, long[] in, Map<String, Tensor> tensors) {
        boolean upsample = node.opType().equals("Upsample");
        Tensor sizes = upsample ? null : tensors.get(node.input(3));
        Tensor scales = tensors.get(node.input(upsample ? 1 : 2));
        long[] given = sizes == null ? null : sizes.smallInts(in.length);
        if (given != null && given.length == in.length) return isStatic(given) ? given : null;
        long[] out = new long[in.length];
        if (scales == null || scales.elementCount() != in.length || !scales.dtype().isFloatingPoint()) return null;
        for (int i = 0; i < out.length; i++) out[i] = (long) Math.floor(in[i] * (double) scales.getFloat(i));
        return isStatic(out) ? out : null;
    }

    private static long[] spatial(long[] weightShape) {
        long[] k = new long[weightShape.length - 2];
        System.arraycopy(weightShape, 2, k, 0, k.length);
        return k;
    }

    /** {@code out = floor((in + padBegin + padEnd - dilation·(k-1) - 1) / stride) + 1} per spatial axis. */
    private static long[] window(OnnxNode node, long[] in, long channels, long[] kernel) {
        int n = in.length - 2;
        if (kernel.length != n) return null;
        long[] strides = node.intsAttribute("strides");
        long[] pads = node.intsAttribute("pads");
        long[] dilations = node.intsAttribute("dilations");
        boolean same = node.stringAttribute("auto_pad", "NOTSET").startsWith("SAME");
        long[] out = new long[in.length];
        out[0] = in[0];
        out[1] = channels;
        for (int i = 0; i < n; i++) {
            long size = in[i + 2];
            long stride = strides.length == n ? strides[i] : 1;
            long dilation = dilations.length == n ? dilations[i] : 1;
            long pad = pads.length == 2 * n ? pads[i] + pads[i + n] : 0;
            if (stride <= 0) return null;
            out[i + 2] = same ? (size + stride - 1) / stride : (size + pad - dilation * (kernel[i] - 1) - 1) / stride + 1;
            if (out[i + 2] <= 0) return null;
        }
        return out;
    }

    /**
     * ConvTranspose: {@code out = stride·(in-1) + output_padding + dilation·(k-1) + 1 - padBegin - padEnd}
     * per spatial axis, or the {@code output_shape} attribute, or {@code in·stride} under SAME.
     */
    private static long[] transposed(OnnxNode node, long[] in, long channels, long[] kernel) {
        int n = in.length - 2;
        if (kernel.length != n) return null;
        long[] strides = node.intsAttribute("strides");
        long[] pads = node.intsAttribute("pads");
        long[] dilations = node.intsAttribute("dilations");
        long[] outputPadding = node.intsAttribute("output_padding");
        long[] outputShape = node.intsAttribute("output_shape");
        boolean same = node.stringAttribute("auto_pad", "NOTSET").startsWith("SAME");
        long[] out = new long[in.length];
        out[0] = in[0];
        out[1] = channels;
        for (int i = 0; i < n; i++) {
            long stride = strides.length == n ? strides[i] : 1;
            long dilation = dilations.length == n ? dilations[i] : 1;
            long pad = pads.length == 2 * n ? pads[i] + pads[i + n] : 0;
            long extra = outputPadding.length == n ? outputPadding[i] : 0;
            if (outputShape.length == n) out[i + 2] = outputShape[i];
            else if (outputShape.length == n + 2) out[i + 2] = outputShape[i + 2];
            else out[i + 2] = same ? in[i + 2] * stride : stride * (in[i + 2] - 1) + extra + dilation * (kernel[i] - 1) + 1 - pad;
            if (out[i + 2] <= 0) return null;
        }
        return out;
    }

    static String dimsText(long[] dims) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < dims.length; i++) sb.append(i == 0 ? "" : "x").append(dims[i] < 0 ? "?" : Long.toString(dims[i]));
        return dims.length == 0 ? Arrays.toString(dims) : sb.toString();
    }
}

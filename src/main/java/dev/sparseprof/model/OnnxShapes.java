package dev.sparseprof.model;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * A small static shape propagation for convolutional graphs, so that a Conv layer's N per sample
 * (its output pixels) is known even when the exporter wrote no {@code value_info}: shapes start
 * from the graph's declared inputs, outputs and value infos, flow through {@code Conv},
 * {@code ConvInteger}, {@code MaxPool}, {@code AveragePool} by the ONNX output-size formula
 * (explicit {@code pads}; {@code auto_pad} SAME keeps {@code ceil(in/stride)}), and through
 * element-wise operators unchanged. Anything else ends the trail (the shape stays unknown).
 */
final class OnnxShapes {
    private static final Set<String> SAME_SHAPE = Set.of("Relu", "LeakyRelu", "Sigmoid", "Tanh", "Clip", "HardSigmoid",
            "HardSwish", "Elu", "Selu", "PRelu", "Softplus", "BatchNormalization", "InstanceNormalization", "Identity",
            "Dropout", "Add", "Sub", "Mul", "Div", "Cast", "QuantizeLinear", "DequantizeLinear", "Neg", "Abs", "Mish", "Gelu");

    private OnnxShapes() {}

    /** Value name to shape ({@code -1} for unknown dimensions), declared ones first. */
    static Map<String, long[]> infer(OnnxGraph graph, Map<String, Tensor> tensors) {
        Map<String, long[]> shapes = new HashMap<>(graph.valueShapes());
        for (OnnxNode node : graph.nodes()) {
            if (node.outputs().isEmpty() || shapes.containsKey(node.outputs().get(0))) continue;
            long[] in = shapes.get(node.input(0));
            if (in == null || in.length < 3) continue;
            long[] out = switch (node.opType()) {
                case "Conv", "ConvInteger" -> {
                    Tensor w = tensors.get(node.input(1));
                    if (w == null || w.rank() != in.length) yield null;
                    yield window(node, in, w.dim(0), spatial(w.shape()));
                }
                case "MaxPool", "AveragePool" -> window(node, in, in[1], node.intsAttribute("kernel_shape"));
                default -> SAME_SHAPE.contains(node.opType()) ? in : null;
            };
            if (out != null) shapes.put(node.outputs().get(0), out);
        }
        return shapes;
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
            if (size <= 0) return null;
            long stride = strides.length == n ? strides[i] : 1;
            long dilation = dilations.length == n ? dilations[i] : 1;
            long pad = pads.length == 2 * n ? pads[i] + pads[i + n] : 0;
            if (stride <= 0) return null;
            out[i + 2] = same ? (size + stride - 1) / stride : (size + pad - dilation * (kernel[i] - 1) - 1) / stride + 1;
            if (out[i + 2] <= 0) return null;
        }
        return out;
    }
}

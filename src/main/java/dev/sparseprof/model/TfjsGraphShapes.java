package dev.sparseprof.model;

import dev.sparseprof.util.DType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The output size of each convolution of a TF.js graph model ({@link TfjsGraph}): shapes are
 * propagated from the {@code Placeholder}, with the height and width its {@code shape} attribute
 * states (converters write the model's fixed input size there, e.g. {@code [-1, 128, 128, 3]}) or,
 * where it leaves them open, those of {@code --input-size HxW} (an unknown batch is 1), through the ops a CNN is made of, NHWC:
 * <ul>
 * <li>{@code Conv2D}, {@code _FusedConv2D}, the depthwise two: {@code SAME} gives
 *     {@code ceil(in / stride)}, {@code VALID} {@code ceil((in - (k - 1)·dilation) / stride)},
 *     {@code EXPLICIT} its pads; {@code MaxPool}, {@code AvgPool} the same with {@code ksize};
 * <li>{@code Conv2DBackpropInput}: the output sizes its first input holds; {@code Pad},
 *     {@code PadV2}, {@code MirrorPad}: its paddings; {@code ResizeBilinear},
 *     {@code ResizeNearestNeighbor}: its size; {@code DepthToSpace}: its block size;
 * <li>element-wise ops (activations, {@code Add}, {@code Mul}, batch norms, ...) broadcast their
 *     inputs' shapes; {@code ConcatV2} adds along its axis; {@code ExpandDims}, {@code Squeeze},
 *     {@code Unpack}, {@code Transpose} and {@code Reshape} (to a computed shape, one -1 inferred)
 *     move the axes; reductions ({@code Mean}, {@code Max}, ...) drop or keep theirs; a conditional's
 *     {@code Merge} takes the first branch whose shape is known.
 * </ul>
 * The small integer vectors such ops take are evaluated too, where the graph computes them from
 * shapes (Keras' {@code UpSampling2D} becomes {@code Mul(StridedSlice(Shape(x)), factor)}):
 * int32 constants of the manifest, {@code Shape}, {@code StridedSlice} (1-D, with begin, end and
 * shrink masks), {@code Pack}, {@code ConcatV2}, {@code Cast}, {@code Identity} and integer
 * {@code Mul}, {@code Add}, {@code Sub}, {@code FloorDiv}. Any other op (reshapes, reductions,
 * loops) ends what is known (a manifest weight that no node lists counts as a constant); a convolution past it keeps N = batch, and
 * {@link #convolutionPixels} leaves it out. Cycles (loops' {@code NextIteration}) count as unknown.
 */
final class TfjsGraphShapes {
    private static final Set<String> ELEMENTWISE = Set.of("Add", "AddV2", "AddN", "Sub", "Mul", "RealDiv", "Maximum", "Minimum",
            "SquaredDifference", "BiasAdd", "Relu", "Relu6", "LeakyRelu", "Prelu", "Elu", "Selu", "Sigmoid", "Tanh", "Softplus", "Swish",
            "Abs", "Neg", "Square", "Sqrt", "Rsqrt", "Exp", "Reciprocal", "Floor", "Ceil", "Identity", "Cast", "FusedBatchNorm",
            "FusedBatchNormV3", "_FusedBatchNormEx", "Softmax", "ZerosLike", "Select", "SelectV2");

    private final Map<String, Map<?, ?>> nodes = new HashMap<>();
    private final Map<String, Tensor> weights;
    private final long height;
    private final long width;
    private final Memo shapes = new Memo(this::computeShape);
    private final Memo values = new Memo(this::computeValue);

    private TfjsGraphShapes(Object json, Map<String, Tensor> weights, long height, long width) {
        this.weights = weights;
        this.height = height;
        this.width = width;
        List<?> list = TfjsGraph.nodes(json);
        if (list != null) {
            for (Object n : list) if (n instanceof Map<?, ?> node && node.get("name") instanceof String name) nodes.put(name, node);
        }
    }

    /**
     * One result per node name (a shape, or a value), computed once. A name met again while its own
     * result is being computed (a loop's cycle) is unknown, and so is a node whose attributes have
     * an unexpected form. A manifest weight that no node lists counts as a constant.
     */
    private final class Memo {
        private final Map<String, long[]> results = new HashMap<>();
        private final Set<String> visiting = new HashSet<>();
        private final Function<Map<?, ?>, long[]> compute;

        Memo(Function<Map<?, ?>, long[]> compute) {
            this.compute = compute;
        }

        long[] of(String name) {
            if (name == null) return null;
            if (results.containsKey(name)) return results.get(name);
            if (!visiting.add(name)) return null;
            long[] r;
            try {
                Map<?, ?> node = nodes.getOrDefault(name, weights.containsKey(name) ? Map.of("name", name, "op", "Const") : null);
                r = node == null ? null : compute.apply(node);
            } catch (RuntimeException e) {
                r = null;
            }
            visiting.remove(name);
            results.put(name, r);
            return r;
        }
    }

    /**
     * Output pixels (H x W) of the convolution each weight feeds, for an input of
     * {@code height x width} where the graph's {@code Placeholder} leaves them open (0: not given, so
     * only an input whose size the file states is followed): a transposed convolution's input pixels
     * (its GEMM runs over the input, col2im after); weights whose op's shapes stay unknown are absent.
     */
    static Map<String, Long> convolutionPixels(Object json, Map<String, TfjsGraph.Feed> feeds, Map<String, Tensor> weights,
                                               long height, long width) {
        TfjsGraphShapes g = new TfjsGraphShapes(json, weights, height, width);
        Map<String, Long> pixels = new HashMap<>();
        for (Map.Entry<String, TfjsGraph.Feed> e : feeds.entrySet()) {
            TfjsGraph.Feed feed = e.getValue();
            if (feed.use() == TfjsGraph.Use.LINEAR_IN_OUT || feed.use() == TfjsGraph.Use.LINEAR_OUT_IN || feed.node() == null) continue;
            Map<?, ?> node = g.nodes.get(feed.node());
            long[] s;
            try {
                s = node == null ? null : feed.use() == TfjsGraph.Use.TRANSPOSED_CONV ? g.shape(input(node, 2)) : g.shape(feed.node());
            } catch (StackOverflowError deep) {
                s = null; // a chain of ops deeper than the thread's stack: this conv keeps N = batch
            }
            if (s != null && s.length == 4 && s[1] > 0 && s[2] > 0) pixels.put(e.getKey(), s[1] * s[2]);
        }
        return pixels;
    }

    /** The node's output shape, or null where unknown. */
    private long[] shape(String name) {
        return shapes.of(name);
    }

    private long[] computeShape(Map<?, ?> node) {
        String op = String.valueOf(node.get("op"));
        switch (op) {
            case "Placeholder" -> {
                long[] dims = placeholderDims(node);
                if (dims == null || dims.length != 4) return dims;
                long h = dims[1] > 0 ? dims[1] : height;
                long w = dims[2] > 0 ? dims[2] : width;
                // an image input whose size neither the file nor --input-size gives: nothing past it is known
                if (h <= 0 || w <= 0) return null;
                return new long[] {dims[0] > 0 ? dims[0] : 1, h, w, dims[3]};
            }
            case "Const" -> {
                Tensor t = weights.get(String.valueOf(node.get("name")));
                return t == null ? null : t.shape();
            }
            case "Conv2D", "_FusedConv2D", "DepthwiseConv2dNative", "FusedDepthwiseConv2dNative" -> {
                long[] in = shape(input(node, 0));
                Tensor filter = weights.get(input(node, 1));
                if (in == null || in.length != 4 || filter == null || filter.rank() != 4) return null;
                boolean depthwise = op.contains("Depthwise");
                long channels = depthwise ? filter.dim(2) * filter.dim(3) : filter.dim(3);
                return window(node, in, filter.dim(0), filter.dim(1), channels);
            }
            case "MaxPool", "AvgPool" -> {
                long[] in = shape(input(node, 0));
                long[] k = TfjsGraph.ints(node, "ksize");
                if (in == null || in.length != 4 || k == null || k.length != 4) return null;
                return window(node, in, k[1], k[2], in[3]);
            }
            case "Conv2DBackpropInput" -> {
                return value(input(node, 0));
            }
            case "Pad", "PadV2", "MirrorPad" -> {
                long[] in = shape(input(node, 0));
                long[] p = value(input(node, 1));
                if (in == null || p == null || p.length != 2 * in.length) return null;
                long[] out = in.clone();
                for (int i = 0; i < in.length; i++) out[i] = in[i] < 0 ? -1 : in[i] + p[2 * i] + p[2 * i + 1];
                return out;
            }
            case "ResizeBilinear", "ResizeNearestNeighbor" -> {
                long[] in = shape(input(node, 0));
                long[] size = value(input(node, 1));
                if (in == null || in.length != 4 || size == null || size.length != 2) return null;
                return new long[] {in[0], size[0], size[1], in[3]};
            }
            case "DepthToSpace" -> {
                long[] in = shape(input(node, 0));
                long b = TfjsGraph.integer(node, "block_size");
                if (in == null || in.length != 4 || b <= 0) return null;
                return new long[] {in[0], in[1] * b, in[2] * b, in[3] / (b * b)};
            }
            case "ConcatV2" -> {
                List<String> ins = TfjsGraph.dataInputs(node);
                if (ins.size() < 2) return null;
                long[] axis = value(ins.get(ins.size() - 1));
                long[] first = shape(ins.get(0));
                if (first == null || axis == null || axis.length != 1) return first;
                int a = (int) (axis[0] < 0 ? axis[0] + first.length : axis[0]);
                long[] out = first.clone();
                for (int i = 1; i < ins.size() - 1; i++) {
                    long[] s = shape(ins.get(i));
                    out[a] = s == null || s.length != out.length || out[a] < 0 ? -1 : out[a] + s[a];
                }
                return out;
            }
            case "ExpandDims" -> {
                long[] in = shape(input(node, 0));
                long[] axis = value(input(node, 1));
                if (in == null || axis == null || axis.length != 1) return null;
                int a = (int) (axis[0] < 0 ? axis[0] + in.length + 1 : axis[0]);
                if (a < 0 || a > in.length) return null;
                long[] out = new long[in.length + 1];
                for (int i = 0, j = 0; i < out.length; i++) out[i] = i == a ? 1 : in[j++];
                return out;
            }
            case "Squeeze" -> {
                long[] in = shape(input(node, 0));
                if (in == null) return null;
                long[] dims = TfjsGraph.ints(node, "squeeze_dims");
                Set<Integer> drop = new HashSet<>();
                if (dims == null || dims.length == 0) {
                    for (int i = 0; i < in.length; i++) if (in[i] == 1) drop.add(i);
                } else {
                    for (long d : dims) drop.add((int) (d < 0 ? d + in.length : d));
                }
                long[] out = new long[in.length - drop.size()];
                for (int i = 0, j = 0; i < in.length; i++) if (!drop.contains(i)) out[j++] = in[i];
                return out;
            }
            case "Unpack" -> {
                long[] in = shape(input(node, 0));
                if (in == null || in.length == 0) return null;
                int a = (int) TfjsGraph.integer(node, "axis");
                a = a < 0 ? a + in.length : a;
                long[] out = new long[in.length - 1];
                for (int i = 0, j = 0; i < in.length; i++) if (i != a) out[j++] = in[i];
                return out;
            }
            case "Reshape" -> {
                long[] in = shape(input(node, 0));
                long[] to = value(input(node, 1));
                if (to == null) return null;
                long[] out = to.clone();
                int unknown = -1;
                long known = 1;
                for (int i = 0; i < out.length; i++) {
                    if (out[i] == -1 && unknown < 0) unknown = i;
                    else if (out[i] <= 0) return null;
                    else known *= out[i];
                }
                if (unknown >= 0) {
                    if (in == null || Arrays.stream(in).anyMatch(d -> d <= 0)) return null;
                    long total = Arrays.stream(in).reduce(1, (x, y) -> x * y);
                    if (total % known != 0) return null;
                    out[unknown] = total / known;
                }
                return out;
            }
            case "Transpose" -> {
                long[] in = shape(input(node, 0));
                long[] perm = value(input(node, 1));
                if (in == null || perm == null || perm.length != in.length) return null;
                long[] out = new long[in.length];
                for (int i = 0; i < out.length; i++) out[i] = in[(int) perm[i]];
                return out;
            }
            case "Mean", "Max", "Min", "Sum", "Prod" -> {
                long[] in = shape(input(node, 0));
                long[] axes = value(input(node, 1));
                if (in == null || axes == null) return null;
                Set<Integer> reduced = new HashSet<>();
                for (long a : axes) reduced.add((int) (a < 0 ? a + in.length : a));
                boolean keep = TfjsGraph.flag(node, "keep_dims");
                List<Long> out = new ArrayList<>();
                for (int i = 0; i < in.length; i++) {
                    if (!reduced.contains(i)) out.add(in[i]);
                    else if (keep) out.add(1L);
                }
                return out.stream().mapToLong(Long::longValue).toArray();
            }
            case "Merge" -> {
                // a conditional's join: either branch's shape (the first that is known)
                for (String in : TfjsGraph.dataInputs(node)) {
                    long[] s = shape(in);
                    if (s != null) return s;
                }
                return null;
            }
            default -> {
                return ELEMENTWISE.contains(op) ? broadcast(node) : null;
            }
        }
    }

    /** Output of a sliding window over NHWC {@code in} with a {@code kh x kw} kernel (see the class comment). */
    private long[] window(Map<?, ?> node, long[] in, long kh, long kw, long channels) {
        long[] strides = TfjsGraph.ints(node, "strides");
        long[] dilations = TfjsGraph.ints(node, "dilations");
        String padding = TfjsGraph.string(node, "padding");
        long sh = strides != null && strides.length == 4 ? strides[1] : 1;
        long sw = strides != null && strides.length == 4 ? strides[2] : 1;
        long dh = dilations != null && dilations.length == 4 ? dilations[1] : 1;
        long dw = dilations != null && dilations.length == 4 ? dilations[2] : 1;
        String format = TfjsGraph.string(node, "data_format");
        if (format != null && !format.equals("NHWC")) return null;
        long[] explicit = TfjsGraph.ints(node, "explicit_paddings");
        long h = size(in[1], kh, sh, dh, padding, explicit, 2);
        long w = size(in[2], kw, sw, dw, padding, explicit, 4);
        return h <= 0 || w <= 0 ? null : new long[] {in[0], h, w, channels};
    }

    private static long size(long in, long k, long stride, long dilation, String padding, long[] explicit, int at) {
        if (in <= 0 || stride <= 0) return -1;
        long span = (k - 1) * dilation + 1;
        if ("SAME".equals(padding)) return ceilDiv(in, stride);
        if ("VALID".equals(padding)) return ceilDiv(in - span + 1, stride);
        if ("EXPLICIT".equals(padding) && explicit != null && explicit.length == 8) return (in + explicit[at] + explicit[at + 1] - span) / stride + 1;
        return -1;
    }

    private static long ceilDiv(long a, long b) {
        return a <= 0 ? -1 : (a + b - 1) / b;
    }

    /** The broadcast of the inputs' known shapes (right-aligned, 1 stretched), else null. */
    private long[] broadcast(Map<?, ?> node) {
        long[] out = null;
        for (String in : TfjsGraph.dataInputs(node)) {
            long[] s = shape(in);
            if (s == null) continue;
            if (out == null || s.length > out.length) {
                long[] wider = s.clone();
                if (out != null) for (int i = 0; i < out.length; i++) wider[s.length - out.length + i] = merge(wider[s.length - out.length + i], out[i]);
                out = wider;
            } else {
                for (int i = 0; i < s.length; i++) out[out.length - s.length + i] = merge(out[out.length - s.length + i], s[i]);
            }
        }
        return out;
    }

    private static long merge(long a, long b) {
        return a == 1 ? b : b == 1 ? a : a == b ? a : -1;
    }

    /** The node's value as a small integer vector, or null where not computed. */
    private long[] value(String name) {
        return values.of(name);
    }

    private long[] computeValue(Map<?, ?> node) {
        String op = String.valueOf(node.get("op"));
        List<String> ins = TfjsGraph.dataInputs(node);
        switch (op) {
            case "Const" -> {
                Tensor t = weights.get(String.valueOf(node.get("name")));
                if (t == null || (t.dtype() != DType.I32 && t.dtype() != DType.I64)) return null;
                return t.smallInts(64);
            }
            case "Shape" -> {
                long[] s = shape(ins.get(0));
                return s == null || Arrays.stream(s).anyMatch(d -> d < 0) ? null : s;
            }
            case "Cast", "Identity" -> {
                return value(ins.get(0));
            }
            case "StridedSlice" -> {
                return stridedSlice(node, ins);
            }
            case "Pack" -> {
                long[] out = new long[ins.size()];
                for (int i = 0; i < out.length; i++) {
                    long[] v = value(ins.get(i));
                    if (v == null || v.length != 1) return null;
                    out[i] = v[0];
                }
                return out;
            }
            case "ConcatV2" -> {
                List<Long> out = new ArrayList<>();
                for (int i = 0; i < ins.size() - 1; i++) {
                    long[] v = value(ins.get(i));
                    if (v == null) return null;
                    for (long x : v) out.add(x);
                }
                return out.stream().mapToLong(Long::longValue).toArray();
            }
            case "Mul", "Add", "AddV2", "Sub", "FloorDiv" -> {
                if (ins.size() != 2) return null;
                long[] a = value(ins.get(0));
                long[] b = value(ins.get(1));
                if (a == null || b == null || (a.length != b.length && a.length != 1 && b.length != 1)) return null;
                long[] out = new long[Math.max(a.length, b.length)];
                for (int i = 0; i < out.length; i++) {
                    long x = a[a.length == 1 ? 0 : i];
                    long y = b[b.length == 1 ? 0 : i];
                    out[i] = switch (op) {
                        case "Mul" -> x * y;
                        case "Sub" -> x - y;
                        case "FloorDiv" -> y == 0 ? 0 : Math.floorDiv(x, y);
                        default -> x + y;
                    };
                }
                return out;
            }
            default -> {
                return null;
            }
        }
    }

    /** A 1-D strided slice with constant begin, end and strides, and its begin, end and shrink masks. */
    private long[] stridedSlice(Map<?, ?> node, List<String> ins) {
        if (ins.size() < 4) return null;
        long[] v = value(ins.get(0));
        long[] begin = value(ins.get(1));
        long[] end = value(ins.get(2));
        long[] step = value(ins.get(3));
        if (v == null || begin == null || end == null || step == null || begin.length != 1 || end.length != 1 || step.length != 1 || step[0] <= 0) {
            return null;
        }
        long b = (TfjsGraph.integer(node, "begin_mask") & 1) != 0 ? 0 : begin[0] < 0 ? begin[0] + v.length : begin[0];
        long e = (TfjsGraph.integer(node, "end_mask") & 1) != 0 ? v.length : end[0] < 0 ? end[0] + v.length : end[0];
        if ((TfjsGraph.integer(node, "shrink_axis_mask") & 1) != 0) return b >= 0 && b < v.length ? new long[] {v[(int) b]} : null;
        List<Long> out = new ArrayList<>();
        for (long i = Math.max(0, b); i < Math.min(e, v.length); i += step[0]) out.add(v[(int) i]);
        return out.stream().mapToLong(Long::longValue).toArray();
    }

    private static long[] placeholderDims(Map<?, ?> node) {
        if (!(node.get("attr") instanceof Map<?, ?> attrs) || !(attrs.get("shape") instanceof Map<?, ?> s)
                || !(s.get("shape") instanceof Map<?, ?> shape) || !(shape.get("dim") instanceof List<?> dims)) {
            return null;
        }
        long[] out = new long[dims.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = dims.get(i) instanceof Map<?, ?> d && d.get("size") != null ? Long.parseLong(String.valueOf(d.get("size"))) : -1;
        }
        return out;
    }

    /** Data input {@code i} of the node ({@link TfjsGraph#dataInputs}), null where absent. */
    private static String input(Map<?, ?> node, int i) {
        List<String> ins = TfjsGraph.dataInputs(node);
        return i < ins.size() ? ins.get(i) : null;
    }
}

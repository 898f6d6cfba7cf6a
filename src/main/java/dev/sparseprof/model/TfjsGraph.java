package dev.sparseprof.model;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What a TF.js graph model ({@code "format": "graph-model"}: a TensorFlow GraphDef converted by
 * tensorflowjs_converter, whose {@code modelTopology.node} lists the ops) does with each weight of
 * its manifest: the op a weight feeds decides its layer, not its name or rank. A graph model's
 * manifest holds every constant of the graph, the filters beside the shape vectors of its Reshapes,
 * the scalars of its arithmetic and the {@code [1, 1, 1, C]} tensors it broadcasts, so a rank rule
 * would take those for convolutions (and a separable convolution's depthwise filter, named
 * {@code .../separable_conv2d/ReadVariableOp}, for a convolution with one output channel). Uses,
 * with the filter at the op's second input:
 * <ul>
 * <li>{@code Conv2D}, {@code _FusedConv2D}: {@link Use#CONV}, filter {@code [kh, kw, in, out]};
 * <li>{@code DepthwiseConv2dNative}, {@code FusedDepthwiseConv2dNative}: {@link Use#DEPTHWISE},
 *     filter {@code [kh, kw, in, multiplier]};
 * <li>{@code Conv2DBackpropInput} (a transposed convolution): {@link Use#TRANSPOSED_CONV}, filter
 *     {@code [kh, kw, out, in]} (its inputs: output sizes, filter, the input);
 * <li>{@code MatMul}, {@code _FusedMatMul}, {@code BatchMatMul(V2)} with a 2-D weight at either
 *     input: {@link Use#LINEAR_IN_OUT} where the weight is {@code [in, out]} (the second input,
 *     {@code transpose_b} / {@code adj_y} false, or the first one transposed), else
 *     {@link Use#LINEAR_OUT_IN}.
 * </ul>
 * Node inputs name a node, optionally with an output index ({@code name:0}); control inputs
 * ({@code ^name}) are not data. A weight fed to two ops keeps its first use. The converter names
 * folded constants anonymously ({@code Const_102}); such a layer takes its op's name
 * ({@link Feed#layerName}).
 */
final class TfjsGraph {
    /** The op a weight feeds, which fixes how its elements form the layer's matrix A. */
    enum Use { CONV, DEPTHWISE, TRANSPOSED_CONV, LINEAR_IN_OUT, LINEAR_OUT_IN }

    /** A weight's use and the op node it feeds. */
    record Feed(Use use, String node) {
        /** The weight's own name where it has a path, else (an anonymous constant) the op's. */
        String layerName(String weight) {
            return weight.indexOf('/') >= 0 || node == null ? weight : node;
        }
    }

    private TfjsGraph() {}

    /** True when the parsed model.json is a graph model (a {@code modelTopology} with a node list). */
    static boolean isGraphModel(Object json) {
        return nodes(json) != null;
    }

    /** Each weight name that a GEMM-like op consumes, with its use; empty when {@code json} is no graph model. */
    static Map<String, Feed> uses(Object json) {
        Map<String, Feed> uses = new HashMap<>();
        List<?> nodes = nodes(json);
        if (nodes == null) return uses;
        for (Object n : nodes) {
            if (!(n instanceof Map<?, ?> node) || !(node.get("op") instanceof String op)) continue;
            List<String> inputs = dataInputs(node);
            String name = node.get("name") instanceof String s ? s : null;
            switch (op) {
                case "Conv2D", "_FusedConv2D" -> put(uses, inputs, 1, Use.CONV, name);
                case "DepthwiseConv2dNative", "FusedDepthwiseConv2dNative" -> put(uses, inputs, 1, Use.DEPTHWISE, name);
                case "Conv2DBackpropInput" -> put(uses, inputs, 1, Use.TRANSPOSED_CONV, name);
                case "MatMul", "_FusedMatMul", "BatchMatMul", "BatchMatMulV2" -> {
                    boolean transposeA = flag(node, "transpose_a") || flag(node, "adj_x");
                    boolean transposeB = flag(node, "transpose_b") || flag(node, "adj_y");
                    // y = a·b: a weight b is [in, out] as stored unless transposed; a weight a is [out, in] unless transposed
                    put(uses, inputs, 1, transposeB ? Use.LINEAR_OUT_IN : Use.LINEAR_IN_OUT, name);
                    put(uses, inputs, 0, transposeA ? Use.LINEAR_IN_OUT : Use.LINEAR_OUT_IN, name);
                }
                default -> { }
            }
        }
        return uses;
    }

    /** The graph model's node list ({@code modelTopology.node}), or null where {@code json} is no graph model. */
    static List<?> nodes(Object json) {
        if (!(json instanceof Map<?, ?> m) || !(m.get("modelTopology") instanceof Map<?, ?> topology)) return null;
        return topology.get("node") instanceof List<?> nodes ? nodes : null;
    }

    /** Records the use of the node named by data input {@code index}, unless a use came first (weights and activations alike: only weights are looked up). */
    private static void put(Map<String, Feed> uses, List<String> inputs, int index, Use use, String node) {
        if (index < inputs.size()) uses.putIfAbsent(inputs.get(index), new Feed(use, node));
    }

    /** The nodes a node's data inputs name, in order: output indices ({@code name:0}) dropped, control inputs ({@code ^name}) left out. */
    static List<String> dataInputs(Map<?, ?> node) {
        List<String> out = new ArrayList<>();
        if (node.get("input") instanceof List<?> list) {
            for (Object o : list) {
                if (!(o instanceof String s) || s.startsWith("^")) continue;
                int colon = s.lastIndexOf(':');
                out.add(colon > 0 && s.substring(colon + 1).chars().allMatch(Character::isDigit) ? s.substring(0, colon) : s);
            }
        }
        return out;
    }

    private static Map<?, ?> attr(Map<?, ?> node, String name) {
        return node.get("attr") instanceof Map<?, ?> attrs && attrs.get(name) instanceof Map<?, ?> a ? a : null;
    }

    /** A boolean attribute ({@code "attr": {"transpose_b": {"b": true}}}), false when absent. */
    static boolean flag(Map<?, ?> node, String name) {
        Map<?, ?> a = attr(node, name);
        return a != null && Boolean.TRUE.equals(a.get("b"));
    }

    /** An int attribute ({@code {"i": "2"}}), 0 where absent. */
    static long integer(Map<?, ?> node, String name) {
        Map<?, ?> a = attr(node, name);
        return a == null || a.get("i") == null ? 0 : Long.parseLong(String.valueOf(a.get("i")));
    }

    /** An int-list attribute ({@code {"list": {"i": ["1", "2", "2", "1"]}}}), or null where absent. */
    static long[] ints(Map<?, ?> node, String name) {
        Map<?, ?> a = attr(node, name);
        if (a == null || !(a.get("list") instanceof Map<?, ?> list)) return null;
        if (!(list.get("i") instanceof List<?> is)) return new long[0];
        return is.stream().mapToLong(o -> Long.parseLong(String.valueOf(o))).toArray();
    }

    /** A string attribute, base64 in the converter's JSON ({@code {"s": "U0FNRQ=="}} is SAME), or null. */
    static String string(Map<?, ?> node, String name) {
        Map<?, ?> a = attr(node, name);
        if (a == null || !(a.get("s") instanceof String s)) return null;
        try {
            return new String(Base64.getDecoder().decode(s), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return s;
        }
    }
}

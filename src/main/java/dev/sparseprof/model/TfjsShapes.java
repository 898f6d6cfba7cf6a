package dev.sparseprof.model;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The output size of each layer of a TF.js layers model ({@code model.json} with a Keras
 * {@code modelTopology}) for an input of {@code H x W} (the size the topology states,
 * {@link #statedInputSize}, else {@code --input-size}), so that a conv
 * weight {@code LAYER/kernel} gets N per sample = that layer's output pixels. Layers are taken in
 * the topology's order, each fed by its first inbound layer (the previous one in a Sequential
 * model); the spatial size changes through {@code Conv2D}, {@code DepthwiseConv2D},
 * {@code SeparableConv2D}, {@code Conv2DTranspose}, the 2-D poolings (Keras {@code valid}:
 * {@code floor((in - k) / s) + 1}, {@code same}: {@code ceil(in / s)}), {@code ZeroPadding2D},
 * {@code UpSampling2D} and the global poolings; other layers keep it. Names the topology does not
 * reach keep N = 1.
 */
final class TfjsShapes {
    private TfjsShapes() {}

    /** Layer name to its output {@code {h, w}}; empty when the JSON holds no Keras layer list. */
    static Map<String, long[]> outputSizes(Object json, long[] inputSize) {
        Map<String, long[]> sizes = new HashMap<>();
        List<?> layers = layerList(json);
        if (layers == null) return sizes;
        long[] previous = inputSize.clone();
        for (Object o : layers) {
            if (!(o instanceof Map<?, ?> layer) || !(layer.get("config") instanceof Map<?, ?> config)) continue;
            String name = String.valueOf(config.get("name"));
            long[] in = previous;
            String from = firstInbound(layer.get("inbound_nodes"));
            if (from != null && sizes.containsKey(from)) in = sizes.get(from);
            long[] out = output(String.valueOf(layer.get("class_name")), config, in);
            sizes.put(name, out);
            previous = out;
        }
        return sizes;
    }

    /**
     * The input's {@code {h, w}} the Keras topology states, where it does: its first layer's
     * {@code batch_input_shape} (Keras 3: {@code batch_shape}), NHWC, both positive (a
     * {@code [null, 224, 224, 3]} model runs at 224 x 224 only); else null (open sizes, or no such key).
     */
    static long[] statedInputSize(Object json) {
        List<?> layers = layerList(json);
        if (layers == null || layers.isEmpty() || !(layers.get(0) instanceof Map<?, ?> first) || !(first.get("config") instanceof Map<?, ?> config)) {
            return null;
        }
        Object shape = config.get("batch_input_shape") != null ? config.get("batch_input_shape") : config.get("batch_shape");
        if (!(shape instanceof List<?> dims) || dims.size() != 4 || !(dims.get(1) instanceof Number h) || !(dims.get(2) instanceof Number w)) return null;
        return h.longValue() > 0 && w.longValue() > 0 ? new long[] {h.longValue(), w.longValue()} : null;
    }

    /** True when the JSON is a model.json with a Keras layer list to propagate through. */
    static boolean hasTopology(Object json) {
        return layerList(json) != null;
    }

    private static List<?> layerList(Object json) {
        if (!(json instanceof Map<?, ?> m) || !(m.get("modelTopology") instanceof Map<?, ?> topology)) return null;
        Object config = topology.get("model_config") instanceof Map<?, ?> mc ? mc.get("config") : topology.get("config");
        if (config instanceof Map<?, ?> c && c.get("layers") instanceof List<?> layers) return layers;
        if (config instanceof List<?> layers) return layers; // old Sequential: config is the layer list
        return null;
    }

    private static String firstInbound(Object nodes) {
        // [[["previous_layer", 0, 0, {}]]] (TF.js) or [{"args": [{"config": {"keras_history": ["previous_layer", ...]}}]}]
        if (nodes instanceof List<?> l && !l.isEmpty() && l.get(0) instanceof List<?> node && !node.isEmpty()
                && node.get(0) instanceof List<?> edge && !edge.isEmpty() && edge.get(0) instanceof String s) return s;
        return null;
    }

    private static long[] output(String kind, Map<?, ?> config, long[] in) {
        String padding = String.valueOf(config.get("padding")).toLowerCase(Locale.ROOT);
        return switch (kind) {
            case "Conv2D", "DepthwiseConv2D", "SeparableConv2D" -> window(in, pair(config.get("kernel_size"), 1), pair(config.get("strides"), 1),
                    pair(config.get("dilation_rate"), 1), padding.equals("same"));
            case "MaxPooling2D", "AveragePooling2D" -> {
                long[] pool = pair(config.get("pool_size"), 2);
                long[] strides = config.get("strides") == null ? pool : pair(config.get("strides"), 1);
                yield window(in, pool, strides, new long[] {1, 1}, padding.equals("same"));
            }
            case "Conv2DTranspose" -> {
                long[] k = pair(config.get("kernel_size"), 1);
                long[] s = pair(config.get("strides"), 1);
                yield padding.equals("same") ? new long[] {in[0] * s[0], in[1] * s[1]}
                        : new long[] {in[0] * s[0] + Math.max(k[0] - s[0], 0), in[1] * s[1] + Math.max(k[1] - s[1], 0)};
            }
            case "ZeroPadding2D" -> {
                long[] p = pads(config.get("padding"));
                yield new long[] {in[0] + p[0], in[1] + p[1]};
            }
            case "UpSampling2D" -> {
                long[] f = pair(config.get("size"), 2);
                yield new long[] {in[0] * f[0], in[1] * f[1]};
            }
            case "GlobalAveragePooling2D", "GlobalMaxPooling2D", "Flatten", "Dense" -> new long[] {1, 1};
            default -> in;
        };
    }

    private static long[] window(long[] in, long[] k, long[] s, long[] d, boolean same) {
        long[] out = new long[2];
        for (int i = 0; i < 2; i++) {
            long span = d[i] * (k[i] - 1) + 1;
            out[i] = same ? (in[i] + s[i] - 1) / s[i] : Math.max(1, (in[i] - span) / s[i] + 1);
        }
        return out;
    }

    private static long[] pair(Object v, long fallback) {
        if (v instanceof Long n) return new long[] {n, n};
        if (v instanceof List<?> l && l.size() == 2 && l.get(0) instanceof Long a && l.get(1) instanceof Long b && a > 0 && b > 0) return new long[] {a, b};
        return new long[] {fallback, fallback};
    }

    /** ZeroPadding2D's {@code padding}: n, [h, w] or [[top, bottom], [left, right]], as total rows and columns added. */
    private static long[] pads(Object v) {
        if (v instanceof Long n) return new long[] {2 * n, 2 * n};
        if (v instanceof List<?> l && l.size() == 2) {
            if (l.get(0) instanceof Long a && l.get(1) instanceof Long b) return new long[] {2 * a, 2 * b};
            if (l.get(0) instanceof List<?> h && l.get(1) instanceof List<?> w && h.size() == 2 && w.size() == 2) {
                return new long[] {(Long) h.get(0) + (Long) h.get(1), (Long) w.get(0) + (Long) w.get(1)};
            }
        }
        return new long[] {0, 0};
    }
}

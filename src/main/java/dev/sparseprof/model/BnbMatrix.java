package dev.sparseprof.model;

import dev.sparseprof.util.DType;
import dev.sparseprof.util.Json;
import dev.sparseprof.util.SparseprofException;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * A bitsandbytes 4-bit weight (NF4 or FP4, {@code Linear4bit}: the {@code load_in_4bit} checkpoints that
 * transformers saves), seen as the GEMM matrix A ({@code [out, in]}), as bitsandbytes' {@code QuantState.as_dict(packed=True)}
 * stores it beside {@code P.weight}:
 * <ul>
 * <li>{@code P.weight}: the codes, two a byte over the weight's row-major elements, the first of a
 *     pair in the high nibble (bitsandbytes' default backend: {@code packed = q[0::2] << 4 | q[1::2]});
 *     any storage dtype, read as its bytes;</li>
 * <li>{@code P.weight.quant_map}: the 16 code values (fp32; NF4's quantiles or FP4's levels);</li>
 * <li>{@code P.weight.absmax}: one scale per block of {@code blocksize} consecutive elements, fp32, or
 *     uint8 codes when the state is nested (double quantization): then {@code nested_quant_map[code]
 *     · nested_absmax[block / nested_blocksize] + nested_offset};</li>
 * <li>{@code P.weight.quant_state.bitsandbytes__nf4} (or {@code __fp4}): uint8 bytes of a JSON object
 *     with {@code shape}, {@code blocksize}, {@code dtype} and the nested items.</li>
 * </ul>
 * An element is {@code quant_map[code]·absmax[block]} in fp32 ({@code dequantize_4bit}); both code
 * tables hold an exact 0 (NF4's code 7, FP4's 0 and 8), so a pruned zero stays zero. The 8-bit
 * {@code Linear8bitLt} weights ({@link #int8Layers}) are plain int8 rows with a scale each.
 */
final class BnbMatrix extends DecodedMatrix implements EncodedWeights {
    private static final String STATE = ".quant_state.bitsandbytes__", ABSMAX = ".absmax", QUANT_MAP = ".quant_map",
            NESTED_ABSMAX = ".nested_absmax", NESTED_QUANT_MAP = ".nested_quant_map";
    /** The JSON state's size limit: a few hundred bytes in practice. */
    private static final long MAX_STATE_BYTES = 1 << 16;

    private final Tensor codes;
    private final float[] map;
    private final float[] absmax;
    private final int blocksize;
    private final double storedBytes;
    private final DType computeType;

    private BnbMatrix(int rows, int cols, Tensor codes, float[] map, float[] absmax, int blocksize, double storedBytes, DType computeType) {
        super(rows, cols);
        this.codes = codes;
        this.map = map;
        this.absmax = absmax;
        this.blocksize = blocksize;
        this.storedBytes = storedBytes;
        this.computeType = computeType;
    }

    /**
     * The weight whose state tensor is {@code state} ({@code P.weight.quant_state.bitsandbytes__*}),
     * its siblings looked up in {@code byName}.
     *
     * @throws IllegalArgumentException naming what is missing or does not fit the state's shape and blocksize
     */
    static BnbMatrix of(Tensor state, String weightName, Map<String, Tensor> byName) {
        Map<String, Object> json = stateJson(state);
        long[] shape = longs(json.get("shape"));
        if (shape == null || shape.length != 2 || shape[0] <= 0 || shape[1] <= 0 || shape[0] > Integer.MAX_VALUE || shape[1] > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("state shape " + json.get("shape") + " is not a 2-D weight's");
        }
        long n = shape[0] * shape[1];
        int blocksize = positiveInt(json.get("blocksize"), "blocksize");
        long blocks = (n + blocksize - 1) / blocksize;
        Tensor codes = require(byName, weightName, "");
        if (codes.sizeBytes() != (n + 1) / 2) throw new IllegalArgumentException(weightName + " holds " + codes.sizeBytes() + " bytes for " + n + " 4-bit codes");
        float[] map = floats(require(byName, weightName, QUANT_MAP), 16);
        Tensor stored = require(byName, weightName, ABSMAX);
        if (stored.elementCount() != blocks) throw new IllegalArgumentException(stored.name() + " holds " + stored.elementCount() + " scales for " + blocks + " blocks");
        if (blocks > Integer.MAX_VALUE) throw new IllegalArgumentException(blocks + " blocks");
        float[] absmax = new float[(int) blocks];
        double storedBytes = codes.sizeBytes() + stored.sizeBytes() + 16 * 4;
        if (byName.containsKey(weightName + NESTED_ABSMAX)) {
            int nestedBlocksize = positiveInt(json.get("nested_blocksize"), "nested_blocksize");
            if (!(json.get("nested_offset") instanceof Number offset)) throw new IllegalArgumentException("nested_offset is not a number");
            float[] nestedMap = floats(require(byName, weightName, NESTED_QUANT_MAP), 256);
            Tensor nested = require(byName, weightName, NESTED_ABSMAX);
            long nestedBlocks = (blocks + nestedBlocksize - 1) / nestedBlocksize;
            float[] nestedAbsmax = floats(nested, nestedBlocks);
            if (stored.dtype() != DType.U8) throw new IllegalArgumentException(stored.name() + " " + stored.dtype().label() + " is not the nested state's uint8 codes");
            for (int b = 0; b < blocks; b++) {
                absmax[b] = nestedMap[(int) stored.rawLong(b)] * nestedAbsmax[b / nestedBlocksize] + offset.floatValue();
            }
            storedBytes += nested.sizeBytes() + 256 * 4;
        } else {
            if (!stored.dtype().isFloatingPoint()) throw new IllegalArgumentException(stored.name() + " " + stored.dtype().label() + " holds no float scales");
            for (int b = 0; b < blocks; b++) absmax[b] = stored.getFloat(b);
        }
        DType compute = switch (String.valueOf(json.get("dtype"))) {
            case "bfloat16" -> DType.BF16;
            case "float32" -> DType.F32;
            default -> DType.F16;
        };
        return new BnbMatrix((int) shape[0], (int) shape[1], codes, map, absmax, blocksize, storedBytes, compute);
    }

    private static Map<String, Object> stateJson(Tensor state) {
        if (state.dtype() != DType.U8 || state.sizeBytes() > MAX_STATE_BYTES) {
            throw new IllegalArgumentException(state.name() + " is not a JSON state of at most " + MAX_STATE_BYTES + " bytes");
        }
        byte[] bytes = state.data().toArray(ValueLayout.JAVA_BYTE);
        try {
            return Json.parseObject(new String(bytes, StandardCharsets.UTF_8));
        } catch (SparseprofException e) {
            throw new IllegalArgumentException(state.name() + " is not a JSON object: " + e.getMessage());
        }
    }

    private static Tensor require(Map<String, Tensor> byName, String weightName, String suffix) {
        Tensor t = byName.get(weightName + suffix);
        if (t == null) throw new IllegalArgumentException(weightName + suffix + " is missing");
        return t;
    }

    private static float[] floats(Tensor t, long count) {
        if (!t.dtype().isFloatingPoint() || t.elementCount() != count) {
            throw new IllegalArgumentException(t.name() + " " + t.dtype().label() + Arrays.toString(t.shape()) + " is not " + count + " floats");
        }
        float[] out = new float[(int) count];
        for (int i = 0; i < out.length; i++) out[i] = t.getFloat(i);
        return out;
    }

    private static long[] longs(Object o) {
        if (!(o instanceof List<?> list)) return null;
        long[] out = new long[list.size()];
        for (int i = 0; i < out.length; i++) {
            if (!(list.get(i) instanceof Long v)) return null;
            out[i] = v;
        }
        return out;
    }

    private static int positiveInt(Object o, String key) {
        if (!(o instanceof Long v) || v <= 0 || v > 1 << 24) throw new IllegalArgumentException(key + " " + o + " is not a positive block size");
        return (int) (long) v;
    }

    /** Codes, block scales (and the nested state) over the weights: 4.5 bits at blocksize 64 with fp32 scales, about 4.13 nested. */
    @Override
    public double storedBitsPerWeight() {
        return 8 * storedBytes / ((double) rows * cols);
    }

    @Override
    public void copyRow(int row, float[] dst, int offset) {
        checkRow(row);
        long first = (long) row * cols;
        // the row's elements in runs of one block each (blocks run over the flat weight, across rows)
        for (int c = 0; c < cols; ) {
            long i = first + c;
            int block = (int) (i / blocksize);
            float scale = absmax[block];
            int end = (int) Math.min(cols, (long) (block + 1) * blocksize - first);
            for (; c < end; c++, i++) {
                int packed = codes.data().get(ValueLayout.JAVA_BYTE, i >>> 1) & 0xff;
                float v = map[(i & 1) == 0 ? packed >>> 4 : packed & 0xf];
                dst[offset + c] = v == 0 ? 0.0f : v * scale;
            }
        }
    }

    /**
     * The bitsandbytes 8-bit weights ({@code Linear8bitLt}, LLM.int8: {@code load_in_8bit}) among
     * {@code tensors}: an int8 {@code P.weight} {@code [out, in]} beside fp32 {@code P.SCB} {@code [out]}
     * (each row's absolute maximum) is the LINEAR layer {@code P.weight}, element {@code q·SCB/127},
     * stored int8. A {@code P.weight_format} other than 0 (row-major; older checkpoints' col32 and
     * tile layouts) is named in {@code faults}. {@code claimed} receives the three names.
     */
    static List<GemmLayer> int8Layers(List<Tensor> tensors, Map<String, Tensor> byName, List<String> faults, List<String> claimed) {
        List<GemmLayer> layers = new ArrayList<>();
        for (Tensor t : tensors) {
            if (!t.name().endsWith(".SCB")) continue;
            String prefix = t.name().substring(0, t.name().length() - ".SCB".length());
            Tensor weight = byName.get(prefix + ".weight");
            if (weight == null || weight.dtype() != DType.I8) continue;
            Tensor format = byName.get(prefix + ".weight_format");
            claimed.addAll(List.of(weight.name(), t.name(), prefix + ".weight_format"));
            long[] s = weight.shape();
            if (s.length != 2 || s[0] > Integer.MAX_VALUE || s[1] > Integer.MAX_VALUE || t.elementCount() != s[0] || !t.dtype().isFloatingPoint()) {
                faults.add(prefix + ": " + weight.name() + " " + Arrays.toString(s) + " and " + t.name() + " " + t.dtype().label()
                        + Arrays.toString(t.shape()) + " are not an int8 [out, in] weight and its [out] row scales");
                continue;
            }
            if (format != null && (format.elementCount() != 1 || format.dtype().isFloatingPoint() || format.rawLong(0) != 0)) {
                faults.add(prefix + ": weight_format " + (format.elementCount() == 1 && !format.dtype().isFloatingPoint() ? format.rawLong(0) : "?")
                        + " is a tiled layout, not row-major (0)");
                continue;
            }
            float[] scales = new float[(int) s[0]];
            for (int r = 0; r < scales.length; r++) scales[r] = t.getFloat(r) / 127f;
            TensorMatrix view = TensorMatrix.rowMajor(weight, (int) s[0], (int) s[1]).withRowQuantization(new RowQuantization(scales, new long[scales.length]));
            layers.add(new GemmLayer(weight.name(), weight.name(), LayerKind.LINEAR, view.rows(), view.cols(), 1, view, 1, false, DType.I8));
        }
        return layers;
    }

    /**
     * The bitsandbytes 4-bit weights among {@code tensors}: each {@code P.weight} with a
     * {@code P.weight.quant_state.bitsandbytes__*} state is the LINEAR layer {@code P.weight} in the
     * state's dtype, priced at its {@link #storedBitsPerWeight}. A state that does not fit its tensors is
     * named in {@code faults}; {@code claimed} receives every tensor of a weight's state, and its codes.
     */
    static List<GemmLayer> layers(List<Tensor> tensors, Map<String, Tensor> byName, List<String> faults, List<String> claimed) {
        List<GemmLayer> layers = new ArrayList<>();
        for (Tensor t : tensors) {
            int at = t.name().lastIndexOf(STATE);
            if (at < 0) continue;
            String weight = t.name().substring(0, at);
            for (String suffix : List.of("", ABSMAX, QUANT_MAP, NESTED_ABSMAX, NESTED_QUANT_MAP)) claimed.add(weight + suffix);
            claimed.add(t.name());
            try {
                BnbMatrix view = of(t, weight, byName);
                layers.add(new GemmLayer(weight, weight, LayerKind.LINEAR, view.rows, view.cols, 1, view, 1, false, view.computeType));
            } catch (IllegalArgumentException e) {
                faults.add(weight + ": " + e.getMessage());
            }
        }
        return layers;
    }
}

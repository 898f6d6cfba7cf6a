package dev.sparseprof.model;

import dev.sparseprof.util.DType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * An MLX affine-quantized weight (mlx-lm's {@code mx.quantize}, the mlx-community checkpoints), seen as
 * the GEMM matrix A ({@code [out, in]}): {@code P.weight} uint32 {@code [out, in·bits/32]}, each row's
 * codes a little-endian bit stream (code {@code c} at bits {@code [c·bits, (c+1)·bits)} of the row, so
 * 3-, 5- and 6-bit codes cross words), {@code P.scales} and {@code P.biases} {@code [out, in/group]} in
 * the weights' 16-bit type. An element is {@code scale·q + bias} ({@code mx.dequantize}), in fp32
 * here, exactly 0 only where that computes to 0. MLX's quantizer puts 0 on the code {@code -q0} of
 * each group ({@code scale = edge / q0}, {@code bias = edge}) but rounds the scale to 16 bits, so a
 * pruned zero comes back as 0 where that rounding is exact: such a layer shows the zeros its
 * quantization kept, as GGUF's affine types do.
 */
final class MlxMatrix extends DecodedMatrix implements EncodedWeights {
    /** The bit widths and group sizes {@code mx.quantize}'s affine mode takes. */
    private static final List<Integer> BITS = List.of(2, 3, 4, 5, 6, 8), GROUPS = List.of(64, 32, 128);

    private final Tensor codes;
    private final Tensor scales;
    private final Tensor biases;
    private final int bits;
    private final int groupSize;
    private final int wordsPerRow;

    private MlxMatrix(Tensor codes, Tensor scales, Tensor biases, int rows, int cols, int bits, int groupSize) {
        super(rows, cols);
        this.codes = codes;
        this.scales = scales;
        this.biases = biases;
        this.bits = bits;
        this.groupSize = groupSize;
        this.wordsPerRow = (int) codes.shape()[1];
    }

    /**
     * The weight of {@code codes} with its {@code scales} and {@code biases}. Its bits and group size come
     * from the shapes, with the config's ({@code quantization: {bits, group_size}}) first where given:
     * {@code in = groups·group_size} and {@code words·32 = in·bits}.
     *
     * @throws IllegalArgumentException naming what does not fit
     */
    static MlxMatrix of(Tensor codes, Tensor scales, Tensor biases, Map<String, String> metadata) {
        long[] w = codes.shape();
        long[] s = scales.shape();
        if (codes.dtype() != DType.U32 || w.length != 2 || w[0] > Integer.MAX_VALUE || w[1] > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(codes.name() + " " + codes.dtype().label() + Arrays.toString(w) + " is not uint32 [out, words]");
        }
        if (!scales.dtype().isFloatingPoint() || !biases.dtype().isFloatingPoint() || s.length != 2 || s[0] != w[0] || !Arrays.equals(s, biases.shape())) {
            throw new IllegalArgumentException(scales.name() + " and " + biases.name() + " are not float [" + w[0] + ", groups] both");
        }
        int configBits = HfConfig.fact(metadata, PackedIntMatrix.QUANT_BITS);
        int configGroup = HfConfig.fact(metadata, PackedIntMatrix.QUANT_GROUP);
        List<Integer> groups = new ArrayList<>();
        if (configGroup > 0) groups.add(configGroup);
        for (int g : GROUPS) if (!groups.contains(g)) groups.add(g);
        for (int g : groups) {
            long in = s[1] * g;
            if (in > Integer.MAX_VALUE || w[1] * 32 % in != 0) continue;
            int bits = (int) (w[1] * 32 / in);
            if (BITS.contains(bits) && (configBits == 0 || bits == configBits || g != configGroup)) {
                return new MlxMatrix(codes, scales, biases, (int) w[0], (int) in, bits, g);
            }
        }
        throw new IllegalArgumentException(codes.name() + " " + Arrays.toString(w) + " and " + s[1] + " groups fit no MLX bit width (2-6, 8) at group size "
                + groups);
    }

    @Override
    public double storedBitsPerWeight() {
        return EncodedWeights.bitsOver((long) rows * cols, codes, scales, biases);
    }

    @Override
    public void copyRow(int row, float[] dst, int offset) {
        checkRow(row);
        long mask = (1L << bits) - 1;
        long base = (long) row * wordsPerRow;
        int groups = cols / groupSize;
        for (int g = 0; g < groups; g++) {
            float scale = scales.getFloat((long) row * groups + g);
            float bias = biases.getFloat((long) row * groups + g);
            for (int c = g * groupSize; c < (g + 1) * groupSize; c++) {
                long bit = (long) c * bits;
                int word = (int) (bit >>> 5);
                int shift = (int) (bit & 31);
                long window = word(base + word) | (shift + bits > 32 ? word(base + word + 1) << 32 : 0);
                float v = scale * (int) ((window >>> shift) & mask) + bias;
                dst[offset + c] = v == 0 ? 0.0f : v;
            }
        }
    }

    private long word(long index) {
        return codes.data().getAtIndex(LittleEndian.I32, index) & 0xffffffffL;
    }

    /**
     * The MLX weights among {@code tensors}: each uint32 {@code P.weight} beside float {@code P.scales}
     * and {@code P.biases} is the LINEAR layer {@code P.weight} in the scales' type, priced at its stored
     * bits (4.5 at 4 bits in groups of 64 with bf16 scales and biases). A set that does not fit is named
     * in {@code faults}; {@code claimed} receives its three names.
     */
    static List<GemmLayer> layers(List<Tensor> tensors, Map<String, Tensor> byName, Map<String, String> metadata, List<String> faults, List<String> claimed) {
        List<GemmLayer> layers = new ArrayList<>();
        for (Tensor t : tensors) {
            if (t.dtype() != DType.U32 || !t.name().endsWith(".weight")) continue;
            String prefix = t.name().substring(0, t.name().length() - ".weight".length());
            Tensor scales = byName.get(prefix + ".scales");
            Tensor biases = byName.get(prefix + ".biases");
            if (scales == null || biases == null) continue;
            claimed.addAll(List.of(t.name(), scales.name(), biases.name()));
            try {
                MlxMatrix view = of(t, scales, biases, metadata);
                LayerKind kind = prefix.toLowerCase(Locale.ROOT).contains("embed") ? LayerKind.EMBEDDING_GATHER : LayerKind.LINEAR;
                layers.add(new GemmLayer(t.name(), t.name(), kind, view.rows, view.cols, 1, view, 1, false, EncodedWeights.sixteenBitType(view.scales)));
            } catch (IllegalArgumentException e) {
                faults.add(prefix + ": " + e.getMessage());
            }
        }
        return layers;
    }
}

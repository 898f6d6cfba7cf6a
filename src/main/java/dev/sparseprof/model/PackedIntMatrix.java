package dev.sparseprof.model;

import dev.sparseprof.util.DType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * A weight whose integer codes are packed into int32 words, as the three common int4/int8 forms of a
 * Hugging Face checkpoint store it, seen as the GEMM matrix A ({@code [out, in]}). Code
 * {@code i} of a word sits in bits {@code [i·bits, (i+1)·bits)}, and an element is
 * {@code (code - zero)·scale} with the zero and scale of its row and its column's group (the
 * column's {@code g_idx} entry where the file has one, else {@code column / group_size}); a code
 * equal to its zero is exactly 0.0f, so a pruned zero stays zero.
 * <ul>
 * <li>{@link Form#COMPRESSED_TENSORS} ({@code pack-quantized}, llm-compressor's W4A16/W8A16):
 *     {@code P.weight_packed} {@code [out, ceil(in / (32 / bits))]}, codes along the input, stored
 *     unsigned ({@code q + 2^(bits-1)}); {@code P.weight_scale} {@code [out, groups]};
 *     {@code P.weight_zero_point} (asymmetric only) {@code [ceil(out / (32 / bits)), groups]},
 *     packed along the output; {@code P.weight_shape} the dense shape. Without zero points the
 *     zero is {@code 2^(bits-1)} (compressed-tensors' {@code pack_to_int32} / {@code unpack_from_int32}).</li>
 * <li>{@link Form#GPTQ} (AutoGPTQ, GPTQModel, optimum): {@code P.qweight} {@code [in / (32 / bits), out]},
 *     codes along the input; {@code P.qzeros} {@code [groups, out / (32 / bits)]} along the output;
 *     {@code P.scales} {@code [groups, out]}; {@code P.g_idx}. The stored zero is one less than the
 *     zero used ({@code (stored + 1) mod 2^bits}, AutoGPTQ's {@code qlinear_cuda_old}), except in
 *     GPTQModel's {@code gptq_v2} checkpoint format.</li>
 * <li>{@link Form#AWQ} (AutoAWQ's GEMM kernels, 4 bits): {@code P.qweight} {@code [in, out / 8]},
 *     codes along the output in the interleaved order {@code 0 2 4 6 1 3 5 7} (AutoAWQ's
 *     {@code AWQ_ORDER}: the word's code {@code i} is output column {@code ORDER[i]} of its eight);
 *     {@code P.qzeros} {@code [groups, out / 8]} the same way; {@code P.scales} {@code [groups, out]}.</li>
 * </ul>
 * Rows are dequantized from the mapped file on demand; the constructor checks every shape against
 * the others and every {@code g_idx} entry against the groups.
 */
final class PackedIntMatrix extends DecodedMatrix implements EncodedWeights {
    /** Which library's layout the tensors follow. */
    enum Form { COMPRESSED_TENSORS, GPTQ, AWQ }

    /** AutoAWQ's interleave: the code slot that holds output column {@code c} of a word's eight ({@code AWQ_REVERSE_ORDER}). */
    private static final int[] AWQ_SLOT = {0, 4, 1, 5, 2, 6, 3, 7};

    private final Form form;
    private final Tensor codes;
    private final Tensor scales;
    private final Tensor zeros;
    private final int[] groupOf;
    private final int bits;
    private final int perWord;
    private final int groups;
    private final boolean zeroPlusOne;

    /**
     * @param zeros       the packed zero points, or null (symmetric: the zero is {@code 2^(bits-1)})
     * @param groupIndex  {@code g_idx}, or null (column {@code c} is in group {@code c / group size})
     * @param zeroPlusOne GPTQ's stored zero is one less than the zero used
     * @param groupSize   the quantizer's group size (the config's), or 0: {@code ceil(cols / groups)}
     * @throws IllegalArgumentException naming the tensor whose shape does not follow from the others
     */
    PackedIntMatrix(Form form, Tensor codes, Tensor scales, Tensor zeros, Tensor groupIndex, int rows, int cols, int bits, boolean zeroPlusOne,
                    int groupSize) {
        super(rows, cols);
        if (bits < 1 || bits > 8) throw new IllegalArgumentException(bits + " bits (1 to 8 pack into int32 words)");
        if (rows <= 0 || cols <= 0) throw new IllegalArgumentException("dense shape " + rows + "x" + cols);
        this.form = form;
        this.codes = codes;
        this.scales = scales;
        this.zeros = zeros;
        this.bits = bits;
        this.perWord = 32 / bits;
        this.zeroPlusOne = zeroPlusOne;
        requireInt32(codes);
        if (zeros != null) requireInt32(zeros);
        if (!scales.dtype().isFloatingPoint()) throw new IllegalArgumentException(scales.name() + " " + scales.dtype().label() + " holds no float scales");
        long[] s = scales.shape();
        switch (form) {
            case COMPRESSED_TENSORS -> {
                requireShape(codes, rows, ceilDiv(cols, perWord));
                groups = scales.elementCount() == 1 ? 1 : (int) requireRows(scales, rows)[1];
                if (zeros != null) requireShape(zeros, ceilDiv(rows, perWord), groups);
            }
            case GPTQ -> {
                if (cols % perWord != 0) throw new IllegalArgumentException(cols + " input features are not whole words of " + perWord + " codes");
                requireShape(codes, cols / perWord, rows);
                groups = groupsOf(scales);
                if (zeros != null) requireShape(zeros, groups, ceilDiv(rows, perWord));
            }
            case AWQ -> {
                if (bits != 4 || rows % perWord != 0) throw new IllegalArgumentException("AWQ packs 4-bit codes, eight output features a word: " + bits + " bits, " + rows + " outputs");
                requireShape(codes, cols, rows / perWord);
                groups = groupsOf(scales);
                if (zeros != null) requireShape(zeros, groups, rows / perWord);
            }
            default -> throw new IllegalStateException();
        }
        if (s.length > 2) throw new IllegalArgumentException(scales.name() + " " + Arrays.toString(s) + " is not a matrix of scales");
        if (groupIndex != null && (groupIndex.dtype().isFloatingPoint() || groupIndex.elementCount() != cols)) {
            throw new IllegalArgumentException(groupIndex.name() + " holds " + groupIndex.elementCount() + " entries for " + cols + " input features");
        }
        groupOf = new int[cols];
        // a last, short group: ceil(cols / groups) is not the group size when cols is not a multiple of it
        int size = groupSize > 0 && ceilDiv(cols, groupSize) == groups ? groupSize : ceilDiv(cols, groups);
        for (int c = 0; c < cols; c++) {
            long g = groupIndex == null ? c / size : groupIndex.rawLong(c);
            if (g < 0 || g >= groups) throw new IllegalArgumentException("g_idx[" + c + "] = " + g + ", outside the " + groups + " groups of the scales");
            groupOf[c] = (int) g;
        }
    }

    private int groupsOf(Tensor scales) {
        long[] s = scales.shape();
        if (s.length != 2 || s[1] != rows || s[0] <= 0 || s[0] > cols) {
            throw new IllegalArgumentException(scales.name() + " " + Arrays.toString(s) + " is not [groups, " + rows + "]");
        }
        return (int) s[0];
    }

    private static long[] requireRows(Tensor t, int rows) {
        long[] s = t.shape();
        if (s.length != 2 || s[0] != rows || s[1] <= 0 || s[1] > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(t.name() + " " + Arrays.toString(s) + " is not [" + rows + ", groups]");
        }
        return s;
    }

    private static void requireShape(Tensor t, long d0, long d1) {
        if (!Arrays.equals(t.shape(), new long[] {d0, d1})) {
            throw new IllegalArgumentException(t.name() + " " + Arrays.toString(t.shape()) + " is not [" + d0 + ", " + d1 + "]");
        }
    }

    private static void requireInt32(Tensor t) {
        if (t.dtype() != DType.I32) throw new IllegalArgumentException(t.name() + " " + t.dtype().label() + " is not packed in int32 words");
    }

    private static int ceilDiv(long a, int b) {
        return (int) ((a + b - 1) / b);
    }

    /** Codes, scales and zero points over the weights (the {@code g_idx} permutation is not counted). */
    @Override
    public double storedBitsPerWeight() {
        return EncodedWeights.bitsOver((long) rows * cols, codes, scales, zeros);
    }

    @Override
    public void copyRow(int row, float[] dst, int offset) {
        checkRow(row);
        int mask = (1 << bits) - 1;
        int[] zero = new int[groups];
        float[] scale = new float[groups];
        for (int g = 0; g < groups; g++) {
            zero[g] = zero(row, g, mask);
            scale[g] = scales.elementCount() == 1 ? scales.getFloat(0)
                    : scales.getFloat(form == Form.COMPRESSED_TENSORS ? (long) row * groups + g : (long) g * rows + row);
        }
        if (form == Form.AWQ) {
            // one code of this row per word, in the slot the row's place in its eight gives: input c's is in qweight[c][row / 8]
            int shift = bits * AWQ_SLOT[row % perWord];
            long stride = rows / perWord;
            long at = row / perWord;
            for (int c = 0; c < cols; c++, at += stride) dst[offset + c] = value((int) (word(at) >>> shift) & mask, groupOf[c], zero, scale);
            return;
        }
        // compressed-tensors: the row's words one after the other; GPTQ: input block w's word is qweight[w][row], a qweight row apart
        long at = form == Form.COMPRESSED_TENSORS ? (long) row * codes.shape()[1] : row;
        long stride = form == Form.COMPRESSED_TENSORS ? 1 : rows;
        for (int c0 = 0; c0 < cols; c0 += perWord, at += stride) {
            long word = word(at);
            int end = Math.min(cols, c0 + perWord);
            for (int c = c0; c < end; c++, word >>>= bits) dst[offset + c] = value((int) word & mask, groupOf[c], zero, scale);
        }
    }

    /** Code {@code code} in group {@code g}: exactly 0.0f at the group's zero. */
    private static float value(int code, int g, int[] zero, float[] scale) {
        return code == zero[g] ? 0.0f : (code - zero[g]) * scale[g];
    }

    /** The int32 word at {@code index} of the codes, as an unsigned value. */
    private long word(long index) {
        return codes.data().getAtIndex(LittleEndian.I32, index) & 0xffffffffL;
    }

    /** The zero code of {@code row} in group {@code g}. */
    private int zero(int row, int g, int mask) {
        if (zeros == null) return 1 << (bits - 1);
        long at = switch (form) {
            case COMPRESSED_TENSORS -> (long) (row / perWord) * groups + g;
            case GPTQ, AWQ -> (long) g * zeros.shape()[1] + row / perWord;
        };
        int slot = form == Form.AWQ ? AWQ_SLOT[row % perWord] : row % perWord;
        int z = (int) ((zeros.rawLong(at) & 0xffffffffL) >>> (bits * slot)) & mask;
        return zeroPlusOne ? (z + 1) & mask : z;
    }

    /** The suffixes of each form's tensors. */
    static final String CT_PACKED = ".weight_packed", CT_SCALE = ".weight_scale", CT_ZERO = ".weight_zero_point",
            CT_G_IDX = ".weight_g_idx", CT_SHAPE = ".weight_shape", QWEIGHT = ".qweight", QZEROS = ".qzeros", SCALES = ".scales", G_IDX = ".g_idx";

    /** The metadata keys {@link HfConfig#metadata} gives a checkpoint's {@code quantization_config}. */
    static final String QUANT_METHOD = "config.quant_method", QUANT_BITS = "config.quant_bits", QUANT_FORMAT = "config.quant_checkpoint_format",
            QUANT_VERSION = "config.quant_version", QUANT_GROUP = "config.quant_group_size";

    /**
     * The packed-int32 weights among {@code tensors}: each {@code P.weight_packed} with its scale and
     * shape, and each {@code P.qweight} with its scales and zeros, is the LINEAR layer {@code P.weight}
     * (its compute type {@link EncodedWeights#sixteenBitType}, its weight bytes {@link #storedBitsPerWeight}). GPTQ and AWQ are told apart by the
     * shapes ({@code qweight}'s second dimension is the outputs in GPTQ, an eighth of them in AWQ);
     * GPTQ's bits follow from {@code qzeros}' width, compressed-tensors' from the packed width (the
     * config's {@code bits} where it fits, else the one usual width of 2, 3, 4 and 8 that fits). A set whose tensors do not hold together,
     * or AutoAWQ's GEMV layout, is named in {@code faults} and left out; {@code claimed} receives the
     * names of every tensor a set stores. {@code metadata} holds the config's {@code quantization_config} facts.
     */
    static List<GemmLayer> layers(List<Tensor> tensors, Map<String, Tensor> byName, Map<String, String> metadata,
                                  List<String> faults, List<String> claimed) {
        List<GemmLayer> layers = new ArrayList<>();
        for (Tensor t : tensors) {
            String name = t.name();
            boolean ct = name.endsWith(CT_PACKED);
            if (!ct && !name.endsWith(QWEIGHT) || ct && t.dtype() == DType.U8) continue; // uint8 weight_packed: FP4 codes (Fp4Matrix)
            String prefix = name.substring(0, name.length() - (ct ? CT_PACKED : QWEIGHT).length());
            List<String> parts = ct ? List.of(name, prefix + CT_SCALE, prefix + CT_ZERO, prefix + CT_G_IDX, prefix + CT_SHAPE)
                    : List.of(name, prefix + SCALES, prefix + QZEROS, prefix + G_IDX);
            Tensor scales = byName.get(parts.get(1));
            if (scales == null) continue;
            claimed.addAll(parts);
            try {
                PackedIntMatrix view = ct ? compressedTensors(t, scales, byName.get(parts.get(2)), byName.get(parts.get(3)), byName.get(parts.get(4)), metadata)
                        : gptqOrAwq(t, scales, byName.get(parts.get(2)), byName.get(parts.get(3)), metadata);
                layers.add(new GemmLayer(prefix + ".weight", name, LayerKind.LINEAR, view.rows, view.cols, 1, view, 1, false, EncodedWeights.sixteenBitType(scales)));
            } catch (IllegalArgumentException e) {
                faults.add(prefix + ": " + e.getMessage());
            }
        }
        return layers;
    }

    /** The config's group size, or 0 where it gives none (-1, GPTQ's per-channel, included). */
    private static int groupSize(Map<String, String> metadata) {
        return HfConfig.fact(metadata, QUANT_GROUP);
    }

    /** The bit widths quantizers write (llm-compressor's W2/W3/W4/W8 presets); a width that packs as another is read as one of these. */
    private static final List<Integer> COMMON_BITS = List.of(2, 3, 4, 8);

    private static PackedIntMatrix compressedTensors(Tensor packed, Tensor scale, Tensor zeros, Tensor gIdx, Tensor shape, Map<String, String> metadata) {
        long[] dims = shape == null ? null : shape.smallInts(8);
        if (dims == null || dims.length != 2 || dims[0] <= 0 || dims[1] <= 0 || dims[0] > Integer.MAX_VALUE || dims[1] > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("weight_shape " + (dims == null ? "missing or unreadable" : Arrays.toString(dims)) + " is not a 2-D weight's");
        }
        long[] p = packed.shape();
        if (p.length != 2) throw new IllegalArgumentException(packed.name() + " " + Arrays.toString(p) + " is not a matrix of words");
        List<Integer> fits = new ArrayList<>();
        for (int b = 1; b <= 8; b++) if (ceilDiv(dims[1], 32 / b) == p[1]) fits.add(b);
        int configBits = HfConfig.fact(metadata, QUANT_BITS);
        List<Integer> usual = fits.stream().filter(COMMON_BITS::contains).toList(); // 7 and 8 bits both pack four a word
        int bits = fits.contains(configBits) ? configBits : fits.size() == 1 ? fits.get(0) : usual.size() == 1 ? usual.get(0) : 0;
        if (bits == 0) {
            throw new IllegalArgumentException(p[1] + " words a row hold " + dims[1] + " codes at " + (fits.isEmpty() ? "no bit width of 1 to 8" : "any of " + fits + " bits, and the config names none of them"));
        }
        return new PackedIntMatrix(Form.COMPRESSED_TENSORS, packed, scale, zeros, gIdx, (int) dims[0], (int) dims[1], bits, false, groupSize(metadata));
    }

    private static PackedIntMatrix gptqOrAwq(Tensor qweight, Tensor scales, Tensor qzeros, Tensor gIdx, Map<String, String> metadata) {
        long[] q = qweight.shape();
        long[] s = scales.shape();
        if (q.length != 2 || s.length != 2) {
            throw new IllegalArgumentException(qweight.name() + " " + Arrays.toString(q) + " and " + scales.name() + " " + Arrays.toString(s) + " are not matrices");
        }
        long out = s[1];
        if (out > Integer.MAX_VALUE) throw new IllegalArgumentException(out + " output features");
        if (q[1] == out) {
            // GPTQ: [in / (32 / bits), out]; the bits from qzeros' [groups, out·bits/32], else the config, else g_idx's length
            int bits = qzeros != null && qzeros.rank() == 2 && qzeros.shape()[1] * 32 % out == 0 ? (int) (qzeros.shape()[1] * 32 / out)
                    : HfConfig.fact(metadata, QUANT_BITS);
            if (bits == 0 && gIdx != null && gIdx.elementCount() % q[0] == 0) bits = (int) (32 / (gIdx.elementCount() / q[0]));
            if (bits != 2 && bits != 4 && bits != 8) throw new IllegalArgumentException("GPTQ bits " + (bits == 0 ? "unknown" : bits) + " (2, 4 and 8 are read; 3-bit words straddle)");
            long in = q[0] * (32 / bits);
            if (in > Integer.MAX_VALUE) throw new IllegalArgumentException(in + " input features");
            boolean v2 = "gptq_v2".equals(metadata.get(QUANT_FORMAT));
            return new PackedIntMatrix(Form.GPTQ, qweight, scales, qzeros, gIdx, (int) out, (int) in, bits, !v2, groupSize(metadata));
        }
        if (q[1] * 8 == out) {
            String version = metadata.getOrDefault(QUANT_VERSION, "gemm");
            if (!version.equalsIgnoreCase("gemm")) throw new IllegalArgumentException("AutoAWQ's " + version + " layout is not read (only GEMM's)");
            if (q[0] > Integer.MAX_VALUE) throw new IllegalArgumentException(q[0] + " input features");
            return new PackedIntMatrix(Form.AWQ, qweight, scales, qzeros, gIdx, (int) out, (int) q[0], 4, false, groupSize(metadata));
        }
        throw new IllegalArgumentException(qweight.name() + " " + Arrays.toString(q) + " is neither GPTQ's [in·bits/32, " + out + "] nor AWQ's [in, " + out / 8 + "] beside "
                + scales.name() + " " + Arrays.toString(s));
    }
}

package dev.sparseprof.model;

import dev.sparseprof.util.DType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An AQLM weight (additive quantization, Egiazarian et al. 2024; the {@code aqlm} package's
 * {@code QuantizedLinear}, as transformers and vLLM load it), seen as the GEMM matrix A
 * ({@code [out, in]}): {@code P.codes} integer {@code [outGroups, inGroups, M]}, {@code P.codebooks}
 * float {@code [M, 2^bits, outGroup, inGroup]} and {@code P.scales} float {@code [outGroups, 1, 1, 1]}.
 * The block of {@code outGroup x inGroup} weights at output group {@code o} and input group {@code g} is
 * {@code scales[o] · Σ_m codebooks[m][codes[o][g][m]]} ({@code aqlm.utils._dequantize_weight}). Codes
 * are stored two's complement in the smallest signed type that holds {@code bits}
 * ({@code pack_int_data}: a 16-bit code above 32767 is negative in int16), so a code's entry is the
 * code modulo {@code 2^bits} ({@code unpack_int_data}). The elements come out in fp32, exactly 0 only
 * where the codewords' sum is: a pruned group stays 0 where the codebooks hold a zero codeword.
 */
final class AqlmMatrix extends DecodedMatrix implements EncodedWeights {
    /** The code types {@code aqlm.utils.get_int_dtype} picks. */
    private static final Set<DType> SIGNED = Set.of(DType.I8, DType.I16, DType.I32, DType.I64);

    private final Tensor codes;
    private final Tensor codebooks;
    private final Tensor scales;
    private final int books;
    private final int entries;
    private final int outGroup;
    private final int inGroup;
    private final int inGroups;

    private AqlmMatrix(Tensor codes, Tensor codebooks, Tensor scales, int books, int entries, int outGroup, int inGroup, int outGroups, int inGroups) {
        super(outGroups * outGroup, inGroups * inGroup);
        this.codes = codes;
        this.codebooks = codebooks;
        this.scales = scales;
        this.books = books;
        this.entries = entries;
        this.outGroup = outGroup;
        this.inGroup = inGroup;
        this.inGroups = inGroups;
    }

    /**
     * The weight of {@code codes} with its {@code codebooks} and {@code scales}.
     *
     * @throws IllegalArgumentException naming what does not fit
     */
    static AqlmMatrix of(Tensor codes, Tensor codebooks, Tensor scales) {
        long[] c = codes.shape();
        long[] b = codebooks.shape();
        long[] s = scales.shape();
        if (!SIGNED.contains(codes.dtype()) || c.length != 3) {
            throw new IllegalArgumentException(codes.name() + " " + codes.dtype().label() + Arrays.toString(c) + " is not signed integer [outGroups, inGroups, codebooks]");
        }
        if (!codebooks.dtype().isFloatingPoint() || b.length != 4 || b[0] != c[2]) {
            throw new IllegalArgumentException(codebooks.name() + " " + Arrays.toString(b) + " is not float [" + c[2] + ", entries, outGroup, inGroup]");
        }
        if (!scales.dtype().isFloatingPoint() || s.length != 4 || s[0] != c[0] || s[1] * s[2] * s[3] != 1) {
            throw new IllegalArgumentException(scales.name() + " " + Arrays.toString(s) + " is not float [" + c[0] + ", 1, 1, 1]");
        }
        long entries = b[1];
        if (entries < 2 || Long.bitCount(entries) != 1 || entries > 1L << (8 * codes.dtype().sizeBytes())) {
            throw new IllegalArgumentException(codebooks.name() + ": " + entries + " entries a codebook is not a power of two that "
                    + codes.dtype().label() + " codes can name");
        }
        for (long d : new long[] {c[0], c[1], b[2], b[3]}) {
            if (d < 1 || d > Integer.MAX_VALUE) throw new IllegalArgumentException(codes.name() + ": a dimension of " + d + " out of range");
        }
        long rows = c[0] * b[2];
        long cols = c[1] * b[3];
        if (rows > Integer.MAX_VALUE || cols > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(codes.name() + ": " + rows + " x " + cols + " weights out of range");
        }
        return new AqlmMatrix(codes, codebooks, scales, (int) c[2], (int) entries, (int) b[2], (int) b[3], (int) c[0], (int) c[1]);
    }

    @Override
    public double storedBitsPerWeight() {
        return EncodedWeights.bitsOver((long) rows * cols, codes, codebooks, scales);
    }

    @Override
    public void copyRow(int row, float[] dst, int offset) {
        checkRow(row);
        int o = row / outGroup;
        int r = row % outGroup;
        float scale = scales.getFloat(o);
        long mask = entries - 1;
        long codeword = (long) outGroup * inGroup;
        for (int g = 0; g < inGroups; g++) {
            int at = offset + g * inGroup;
            Arrays.fill(dst, at, at + inGroup, 0f);
            for (int m = 0; m < books; m++) {
                long entry = codes.rawLong(((long) o * inGroups + g) * books + m) & mask;
                long base = ((long) m * entries + entry) * codeword + (long) r * inGroup;
                for (int j = 0; j < inGroup; j++) dst[at + j] += codebooks.getFloat(base + j);
            }
            for (int j = 0; j < inGroup; j++) {
                float v = dst[at + j] * scale;
                dst[at + j] = v == 0 ? 0.0f : v;
            }
        }
    }

    /**
     * The AQLM weights among {@code tensors}: each integer {@code P.codes} beside {@code P.codebooks} and
     * {@code P.scales} is the LINEAR layer {@code P.weight} in the codebooks' 16-bit type, priced at its
     * stored bits (codes, codebooks and scales: 2.5 for 1x16 codes of 8 inputs on a 4096 x 4096
     * weight). A set that does not fit is named in {@code faults}; {@code claimed} receives its three names.
     */
    static List<GemmLayer> layers(List<Tensor> tensors, Map<String, Tensor> byName, List<String> faults, List<String> claimed) {
        List<GemmLayer> layers = new ArrayList<>();
        for (Tensor t : tensors) {
            if (!SIGNED.contains(t.dtype()) || !t.name().endsWith(".codes")) continue;
            String prefix = t.name().substring(0, t.name().length() - ".codes".length());
            Tensor codebooks = byName.get(prefix + ".codebooks");
            Tensor scales = byName.get(prefix + ".scales");
            if (codebooks == null || scales == null) continue;
            claimed.addAll(List.of(t.name(), codebooks.name(), scales.name()));
            try {
                AqlmMatrix view = of(t, codebooks, scales);
                layers.add(new GemmLayer(prefix + ".weight", t.name(), LayerKind.LINEAR, view.rows, view.cols, 1, view, 1, false, EncodedWeights.sixteenBitType(view.codebooks)));
            } catch (IllegalArgumentException e) {
                faults.add(prefix + ": " + e.getMessage());
            }
        }
        return layers;
    }
}

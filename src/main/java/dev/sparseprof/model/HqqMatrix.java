package dev.sparseprof.model;

import dev.sparseprof.util.DType;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An HQQ weight (half-quadratic quantization, the {@code hqq} package's {@code HQQLinear}, as
 * transformers saves it: its encoded state dict), seen as the GEMM matrix A ({@code [out, in]}). The
 * weight is cut into groups ({@code P.axis} 1: {@code W.reshape(-1, group)}, a group per row of that;
 * axis 0: {@code W.reshape(group, -1)}, a group per column), quantized per group to {@code nbits}
 * codes, and the codes' grouped matrix is packed along its first dimension ({@code hqq.core.bitpack}:
 * {@code 8bit_u8}; {@code 4bit_u8}, row {@code i} of the first half in the high nibble of packed row
 * {@code i}, the second half in the low; {@code 2bit_u8} and {@code 1bit_u8} alike in quarters and
 * eighths; {@code 3bit_32}, ten 3-bit codes per int32 from bit 27 down, the rows padded to a multiple of
 * ten). An element is {@code (q - zero)·scale} ({@code Quantizer.dequantize}), with {@code P.scale} and
 * {@code P.zero} per group, in fp32 here: exactly 0 only where the code equals its group's zero point.
 * The state's other entries are small tensors ({@code encode_safetensor_type}): {@code P.shape},
 * {@code P.nbits}, {@code P.group_size}, {@code P.axis}, {@code P.packing} (the name's characters as
 * uint8), {@code P.view_as_float} (codes stored viewed as the compute dtype).
 */
final class HqqMatrix extends DecodedMatrix implements EncodedWeights {
    /** The state entries besides {@code W_q}, {@code scale}, {@code zero} and {@code bias} ({@code HQQLinear.state_dict_keys}). */
    static final List<String> META = List.of("nbits", "group_size", "shape", "axis", "packing", "unpack_view_dtype", "view_as_float",
            "quant_scale", "quant_zero", "compute_dtype", "offload_meta", "encoded_state_dict", "stores_quant_config", "channel_wise",
            "optimize", "round_zero");

    /** A packing of {@code hqq.core.bitpack}: bits per code and codes per packed unit. */
    enum Packing {
        BITS8("8bit_u8", 8, 1), BITS4("4bit_u8", 4, 2), BITS3("3bit_32", 3, 10), BITS2("2bit_u8", 2, 4), BITS1("1bit_u8", 1, 8);

        final String label;
        final int bits;
        final int perUnit;

        Packing(String label, int bits, int perUnit) {
            this.label = label;
            this.bits = bits;
            this.perUnit = perUnit;
        }

        /** Bytes of one packed unit: an int32 for {@code 3bit_32}, a byte for the rest. */
        int unitBytes() {
            return this == BITS3 ? 4 : 1;
        }

        /** The shift of the {@code slot}-th code of a unit: the first slot highest. */
        int shift(int slot) {
            return (perUnit - 1 - slot) * bits;
        }

        static Packing of(String label) {
            for (Packing p : values()) if (p.label.equals(label)) return p;
            throw new IllegalArgumentException("packing '" + label + "' is none of 8bit_u8, 4bit_u8, 3bit_32, 2bit_u8, 1bit_u8");
        }
    }

    private final Tensor codes;
    private final Tensor scale;
    private final Tensor zero;
    private final Packing packing;
    private final boolean alongRows;
    private final int group;
    private final long groupedCols;
    private final long step;

    private HqqMatrix(Tensor codes, Tensor scale, Tensor zero, Packing packing, int rows, int cols, boolean alongRows, int group, long groupedCols,
                      long step) {
        super(rows, cols);
        this.codes = codes;
        this.scale = scale;
        this.zero = zero;
        this.packing = packing;
        this.alongRows = alongRows;
        this.group = group;
        this.groupedCols = groupedCols;
        this.step = step;
    }

    /**
     * The weight of {@code codes} with its {@code scale}, {@code zero} and the state's entries {@code meta}
     * (by their short names).
     *
     * @throws IllegalArgumentException naming what does not fit
     */
    static HqqMatrix of(Tensor codes, Tensor scale, Tensor zero, Map<String, Tensor> meta) {
        long[] shape = ints(meta, "shape", 2);
        int axis = (int) ints(meta, "axis", 1)[0];
        long group = ints(meta, "group_size", 1)[0];
        Packing packing = Packing.of(text(meta.get("packing"), "packing"));
        long rows = shape[0];
        long cols = shape[1];
        if (rows < 1 || cols < 1 || rows > Integer.MAX_VALUE || cols > Integer.MAX_VALUE || (axis != 0 && axis != 1)) {
            throw new IllegalArgumentException("shape " + Arrays.toString(shape) + " or axis " + axis + " out of range");
        }
        long n = rows * cols;
        if (group < 1 || n % group != 0) throw new IllegalArgumentException("group_size " + group + " does not divide " + n + " weights");
        long groupedRows = axis == 1 ? n / group : group;
        long groupedCols = axis == 1 ? group : n / group;
        long paddedRows = packing == Packing.BITS3 ? (groupedRows + 9) / 10 * 10 : groupedRows;
        if (paddedRows % packing.perUnit != 0) {
            throw new IllegalArgumentException(groupedRows + " grouped rows do not pack " + packing.perUnit + " to a unit (" + packing.label + ")");
        }
        long step = paddedRows / packing.perUnit;
        long[] c = codes.shape();
        if (codes.sizeBytes() != step * groupedCols * packing.unitBytes() || c.length != 2 || c[0] != step) {
            throw new IllegalArgumentException(codes.name() + " " + codes.dtype().label() + Arrays.toString(c) + " does not hold " + step + " x "
                    + groupedCols + " " + packing.label + " units");
        }
        long groups = n / group;
        for (Tensor t : new Tensor[] {scale, zero}) {
            if (!t.dtype().isFloatingPoint() || t.elementCount() != groups) {
                throw new IllegalArgumentException(t.name() + " " + t.dtype().label() + Arrays.toString(t.shape()) + " is not " + groups + " floats, one a group");
            }
        }
        return new HqqMatrix(codes, scale, zero, packing, (int) rows, (int) cols, axis == 1, (int) group, groupedCols, step);
    }

    /** The integers of the state entry {@code key}, at least {@code count} of them. */
    private static long[] ints(Map<String, Tensor> meta, String key, int count) {
        Tensor t = meta.get(key);
        long[] v = t == null || t.dtype().isFloatingPoint() ? null : t.smallInts(8);
        if (v == null || v.length < count) throw new IllegalArgumentException("no integer " + key + " in the state");
        return v;
    }

    /** A string entry: its characters stored as uint8 ({@code encode_safetensor_type}). */
    private static String text(Tensor t, String key) {
        long[] v = t == null || t.dtype() != DType.U8 ? null : t.smallInts(64);
        if (v == null) throw new IllegalArgumentException("no " + key + " in the state");
        byte[] b = new byte[v.length];
        for (int i = 0; i < v.length; i++) b[i] = (byte) v[i];
        return new String(b, StandardCharsets.US_ASCII);
    }

    @Override
    public double storedBitsPerWeight() {
        return EncodedWeights.bitsOver((long) rows * cols, codes, scale, zero);
    }

    @Override
    public void copyRow(int row, float[] dst, int offset) {
        checkRow(row);
        long mask = (1L << packing.bits) - 1;
        long first = (long) row * cols;
        // the row's elements walk the grouped matrix in order: column gc of grouped row gr, the next
        // grouped row when gc wraps; its packed row and slot change only then
        long gr = first / groupedCols;
        long gc = first % groupedCols;
        long rowStart = (gr % step) * groupedCols;
        int shift = packing.shift((int) (gr / step));
        float z = 0;
        float sc = 0;
        if (alongRows) {
            z = zero.getFloat(gr);
            sc = scale.getFloat(gr);
        }
        for (int c = 0; c < cols; c++) {
            long unit = rowStart + gc;
            long word = packing.unitBytes() == 4 ? codes.data().getAtIndex(LittleEndian.I32, unit) & 0xffffffffL
                    : codes.data().get(ValueLayout.JAVA_BYTE, unit) & 0xff;
            long q = (word >>> shift) & mask;
            if (!alongRows) {
                z = zero.getFloat(gc);
                sc = scale.getFloat(gc);
            }
            float v = (q - z) * sc;
            dst[offset + c] = v == 0 ? 0.0f : v;
            if (++gc == groupedCols && c + 1 < cols) {
                gc = 0;
                gr++;
                rowStart = (gr % step) * groupedCols;
                shift = packing.shift((int) (gr / step));
                if (alongRows) {
                    z = zero.getFloat(gr);
                    sc = scale.getFloat(gr);
                }
            }
        }
    }

    /**
     * The HQQ weights among {@code tensors}: each {@code P.W_q} beside {@code P.scale}, {@code P.zero}
     * and the state's entries is the LINEAR layer {@code P.weight} in the scales' 16-bit type, priced at
     * its stored bits (4.5 at 4 bits in groups of 64 with fp16 scales and zero points). A set that does
     * not fit is named in {@code faults}; {@code claimed} receives its names, the state's entries included.
     */
    static List<GemmLayer> layers(List<Tensor> tensors, Map<String, Tensor> byName, List<String> faults, List<String> claimed) {
        List<GemmLayer> layers = new ArrayList<>();
        for (Tensor t : tensors) {
            if (!t.name().endsWith(".W_q")) continue;
            String prefix = t.name().substring(0, t.name().length() - ".W_q".length());
            Tensor scale = byName.get(prefix + ".scale");
            Tensor zero = byName.get(prefix + ".zero");
            if (scale == null || zero == null) continue;
            Map<String, Tensor> meta = new HashMap<>();
            claimed.addAll(List.of(t.name(), scale.name(), zero.name()));
            for (String key : META) {
                Tensor m = byName.get(prefix + "." + key);
                if (m != null) {
                    meta.put(key, m);
                    claimed.add(m.name());
                }
            }
            try {
                HqqMatrix view = of(t, scale, zero, meta);
                layers.add(new GemmLayer(prefix + ".weight", t.name(), LayerKind.LINEAR, view.rows, view.cols, 1, view, 1, false, EncodedWeights.sixteenBitType(view.scale)));
            } catch (IllegalArgumentException e) {
                faults.add(prefix + ": " + e.getMessage());
            }
        }
        return layers;
    }
}

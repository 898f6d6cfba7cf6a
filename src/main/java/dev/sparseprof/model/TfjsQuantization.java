package dev.sparseprof.model;

import dev.sparseprof.util.DType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Map;

/**
 * TF.js weight quantization, dequantized into fp32 (int32 weights into rounded int32):
 * {@code {dtype: uint8|uint16, scale, min}} gives {@code q·scale + min},
 * {@code {dtype, scale, zeroPoint}} gives {@code (q - zeroPoint)·scale}, {@code {dtype: float16}} is
 * decoded.
 *
 * <p>Zeros: affine {@code min} quantization need not map any code to exactly 0 (the converter
 * nudges {@code min} to {@code -zeroPoint·scale}, but the JSON decimal and the float arithmetic
 * leave a residue around 1e-9). Decision: the code nearest to {@code -min/scale} is the zero code and
 * decodes to exactly 0.0f when it lies in the code range and its affine value is within
 * {@code scale/2} of zero (i.e. zero is inside the quantized range); otherwise no code is zero.
 * Every other code keeps its affine value.
 */
final class TfjsQuantization {
    private TfjsQuantization() {}

    static MemorySegment dequantize(String source, String where, Map<?, ?> q, MemorySegment raw, long count, DType target, Arena arena) {
        String qtype = String.valueOf(q.get("dtype"));
        MemorySegment out = arena.allocate(Math.max(1, count * 4), 8).asSlice(0, count * 4);
        if (qtype.equals("float16")) {
            if (target != DType.F32) throw ModelFormatException.in(source, where + ": float16 quantization of " + target.label());
            for (long i = 0; i < count; i++) out.setAtIndex(LittleEndian.F32, i, Float.float16ToFloat(raw.getAtIndex(LittleEndian.I16, i)));
            return out;
        }
        int bits = switch (qtype) {
            case "uint8" -> 8;
            case "uint16" -> 16;
            default -> throw ModelFormatException.in(source, where + " has unsupported quantization dtype '" + qtype + "' (uint8, uint16, float16)");
        };
        double scale = number(source, where, q, "scale");
        double min = q.containsKey("zeroPoint") ? -Math.round(number(source, where, q, "zeroPoint")) * scale : number(source, where, q, "min");
        long zeroCode = zeroCodeOf(source, where, q);
        for (long i = 0; i < count; i++) {
            int code = bits == 8 ? raw.get(ValueLayout.JAVA_BYTE, i) & 0xff : raw.getAtIndex(LittleEndian.I16, i) & 0xffff;
            double v = code == zeroCode ? 0.0 : code * scale + min;
            if (target == DType.I32) out.setAtIndex(LittleEndian.I32, i, (int) Math.round(v));
            else out.setAtIndex(LittleEndian.F32, i, (float) v);
        }
        return out;
    }

    /**
     * The stored code of an exact 0 under quantization {@code q}: 0 for float16, the zero point, or
     * the code nearest {@code -min/scale} (see the class comment); -1 when no code decodes to 0.
     */
    static long zeroCodeOf(String source, String where, Map<?, ?> q) {
        String qtype = String.valueOf(q.get("dtype"));
        if (qtype.equals("float16")) return 0;
        int bits = switch (qtype) {
            case "uint8" -> 8;
            case "uint16" -> 16;
            default -> throw ModelFormatException.in(source, where + " has unsupported quantization dtype '" + qtype + "' (uint8, uint16, float16)");
        };
        double scale = number(source, where, q, "scale");
        if (q.containsKey("zeroPoint")) return Math.round(number(source, where, q, "zeroPoint"));
        return zeroCode(scale, number(source, where, q, "min"), (1L << bits) - 1);
    }

    /** The code that stands for 0 (see the class comment), or -1 when zero is outside the range. */
    static long zeroCode(double scale, double min, long maxCode) {
        if (!(scale > 0)) return -1;
        long code = Math.round(-min / scale);
        if (code < 0 || code > maxCode) return -1;
        return Math.abs(code * scale + min) < scale / 2 ? code : -1;
    }

    private static double number(String source, String where, Map<?, ?> q, String key) {
        if (!(q.get(key) instanceof Number n) || !Double.isFinite(n.doubleValue())) {
            throw ModelFormatException.in(source, where + " quantization has no numeric '" + key + "'");
        }
        return n.doubleValue();
    }
}

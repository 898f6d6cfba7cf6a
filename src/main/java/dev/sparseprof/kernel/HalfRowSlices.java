package dev.sparseprof.kernel;

import dev.sparseprof.sparse.CsrMatrix;
import dev.sparseprof.trace.ArrayRole;
import java.util.Map;

/**
 * CSR with 16-bit values: fp16 (IEEE binary16, {@link Float#floatToFloat16}) or bf16 (the upper
 * half of the fp32 bits, rounded to nearest even), decoded to fp32 by the kernel; accumulation is
 * fp32. Same invariant as CSR for the pointers and indices.
 */
public final class HalfRowSlices {
    /** The 16-bit value encodings. */
    public enum Encoding {
        FP16, BF16;

        short encode(float v) {
            if (this == FP16) return Float.floatToFloat16(v);
            int bits = Float.floatToRawIntBits(v);
            int rounded = bits + 0x7FFF + ((bits >>> 16) & 1); // round to nearest even
            return (short) (rounded >>> 16);
        }

        float decode(short h) {
            return this == FP16 ? Float.float16ToFloat(h) : Float.intBitsToFloat(h << 16);
        }
    }

    private final Encoding encoding;
    private final int rows;
    private final int cols;
    private final int[] rowPointers;
    private final int[] columnIndices;
    private final short[] values;

    private HalfRowSlices(Encoding encoding, CsrMatrix a, short[] values) {
        this.encoding = encoding;
        this.rows = a.rows();
        this.cols = a.cols();
        this.rowPointers = a.rowPointers();
        this.columnIndices = a.columnIndices();
        this.values = values;
    }

    /** Rounds A's values to the encoding (the matrix the kernel really multiplies). */
    public static HalfRowSlices of(CsrMatrix a, Encoding encoding) {
        float[] v = a.values();
        short[] h = new short[v.length];
        for (int i = 0; i < v.length; i++) h[i] = encoding.encode(v[i]);
        return new HalfRowSlices(encoding, a, h);
    }

    public Encoding encoding() { return encoding; }

    public int rows() { return rows; }

    public int cols() { return cols; }

    public int nnz() { return values.length; }

    public int[] rowPointers() { return rowPointers; }

    public int[] columnIndices() { return columnIndices; }

    public short[] values() { return values; }

    public Map<ArrayRole, Long> arrayBytes() {
        long nnz = values.length;
        return Map.of(ArrayRole.ROW_POINTERS, (rows + 1L) * Integer.BYTES, ArrayRole.COLUMN_INDICES, nnz * Integer.BYTES, ArrayRole.VALUES, nnz * Short.BYTES);
    }
}

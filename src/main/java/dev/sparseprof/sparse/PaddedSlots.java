package dev.sparseprof.sparse;

import dev.sparseprof.util.SparseprofException;

/**
 * The row layout ELL and SELL-C-sigma share: a row owns {@code width} slots, {@code stride} apart
 * from {@code base}; its non-zeros come first with strictly increasing columns, then padding slots
 * holding 0.0f at column 0 (a valid column, so kernels may process padding unconditionally).
 */
final class PaddedSlots {
    private PaddedSlots() {}

    /** Non-zero (value != 0) entries of CSR row {@code r}. */
    static int nonZeros(CsrMatrix a, int r) {
        float[] val = a.values();
        int n = 0;
        for (int j = a.rowPointers()[r]; j < a.rowPointers()[r + 1]; j++) if (val[j] != 0.0f) n++;
        return n;
    }

    /** Writes CSR row {@code r}'s non-zeros, then padding, into the row's slots. */
    static void fill(CsrMatrix a, int r, int[] idx, float[] val, int base, int stride, int width) {
        int s = 0;
        float[] values = a.values();
        int[] columns = a.columnIndices();
        for (int j = a.rowPointers()[r]; j < a.rowPointers()[r + 1]; j++) {
            if (values[j] == 0.0f) continue;
            idx[base + s * stride] = columns[j];
            val[base + s * stride] = values[j];
            s++;
        }
        for (; s < width; s++) {
            idx[base + s * stride] = 0;
            val[base + s * stride] = 0.0f;
        }
    }

    /** Checks one row's slots and returns its non-zero count. */
    static int check(String format, int row, int cols, int[] idx, float[] val, int base, int stride, int width) {
        int n = 0;
        boolean padding = false;
        for (int s = 0; s < width; s++) {
            int slot = base + s * stride;
            if (val[slot] == 0.0f) {
                if (idx[slot] != 0) throw new SparseprofException(format + ": padding slot " + s + " of row " + row + " has column " + idx[slot] + ", not 0");
                padding = true;
                continue;
            }
            if (padding) throw new SparseprofException(format + ": row " + row + " has a non-zero after padding");
            int c = idx[slot];
            if (c < 0 || c >= cols) throw new SparseprofException(format + ": column " + c + " out of range in row " + row);
            if (s > 0 && c <= idx[slot - stride]) throw new SparseprofException(format + ": columns not increasing in row " + row);
            n++;
        }
        return n;
    }

    /** Copies one row's non-zeros to {@code outIdx/outVal} from {@code at}; returns the new end. */
    static int copyOut(int[] idx, float[] val, int base, int stride, int width, int[] outIdx, float[] outVal, int at) {
        for (int s = 0; s < width; s++) {
            int slot = base + s * stride;
            if (val[slot] == 0.0f) break;
            outIdx[at] = idx[slot];
            outVal[at++] = val[slot];
        }
        return at;
    }
}

package dev.sparseprof.sparse;

import dev.sparseprof.util.SparseprofException;
import java.util.Arrays;

/**
 * The compressed-sparse layout CSR and CSC share: {@code majors + 1} pointers into parallel
 * index/value arrays, indices strictly increasing within each major line. One checker and one
 * transpose serve both formats (CSR's rows are CSC's columns of the transpose).
 */
final class Compressed {
    private Compressed() {}

    /** Pointers, indices and values of one compressed layout (arrays owned, not copied). */
    record Arrays3(int[] pointers, int[] indices, float[] values) {}

    static void validate(String format, String major, int majors, int minors, int[] pointers, int[] indices, int valueCount) {
        if (majors < 0 || minors < 0) throw new SparseprofException(format + ": negative shape");
        if (pointers.length != majors + 1) {
            throw new SparseprofException(format + ": " + major + " pointers have " + pointers.length + " entries, need " + (majors + 1));
        }
        if (pointers[0] != 0) throw new SparseprofException(format + ": " + major + " pointer 0 is " + pointers[0] + ", not 0");
        int nnz = pointers[majors];
        if (indices.length != nnz || valueCount != nnz) {
            throw new SparseprofException(format + ": " + nnz + " entries by the pointers but " + indices.length + " indices and " + valueCount + " values");
        }
        for (int i = 0; i < majors; i++) {
            int start = pointers[i];
            int end = pointers[i + 1];
            if (end < start || end > nnz) throw new SparseprofException(format + ": " + major + " pointers decrease or overrun at " + major + " " + i);
            for (int j = start; j < end; j++) {
                int idx = indices[j];
                if (idx < 0 || idx >= minors) throw new SparseprofException(format + ": index " + idx + " out of range [0, " + minors + ") in " + major + " " + i);
                if (j > start && idx <= indices[j - 1]) throw new SparseprofException(format + ": indices not increasing in " + major + " " + i);
            }
        }
    }

    /** The transpose: a {@code majors x minors} layout becomes {@code minors x majors}; stable, so sorted. */
    static Arrays3 transpose(int majors, int minors, int[] pointers, int[] indices, float[] values) {
        int nnz = pointers[majors];
        int[] outPointers = new int[minors + 1];
        for (int j = 0; j < nnz; j++) outPointers[indices[j] + 1]++;
        for (int i = 0; i < minors; i++) outPointers[i + 1] += outPointers[i];
        int[] next = Arrays.copyOf(outPointers, minors);
        int[] outIndices = new int[nnz];
        float[] outValues = new float[nnz];
        for (int i = 0; i < majors; i++) {
            for (int j = pointers[i]; j < pointers[i + 1]; j++) {
                int slot = next[indices[j]]++;
                outIndices[slot] = i;
                outValues[slot] = values[j];
            }
        }
        return new Arrays3(outPointers, outIndices, outValues);
    }
}

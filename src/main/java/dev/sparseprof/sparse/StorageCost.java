package dev.sparseprof.sparse;

import dev.sparseprof.sparse.stats.MatrixStats;
import dev.sparseprof.util.DType;
import dev.sparseprof.util.SparseprofException;

/**
 * The exact bytes one matrix takes in one format with one value type.
 *
 * @param denseBytes the same matrix stored dense: {@code rows * cols * dtype size}
 * @param valueBytes the stored non-zero values
 * @param indexBytes per-non-zero (or per-block) coordinates: column/row indices
 * @param metadataBytes per-row/column/chunk structure: pointers, permutations, bitmaps, N:M metadata
 * @param paddingBytes stored slots that hold no non-zero: value and index of ELL/SELL padding, zero
 *     fill of BSR blocks, empty N:M slots
 */
public record StorageCost(String format, DType dtype, long denseBytes, long valueBytes, long indexBytes,
                          long metadataBytes, long paddingBytes) {
    public StorageCost {
        if (format == null || dtype == null) throw new SparseprofException("storage cost: no format or dtype");
        if (denseBytes < 0 || valueBytes < 0 || indexBytes < 0 || metadataBytes < 0 || paddingBytes < 0) {
            throw new SparseprofException("storage cost of " + format + ": negative byte count");
        }
    }

    /** The bytes of {@code format} for the matrix {@code stats} describe, without building it. */
    public static StorageCost of(String format, MatrixStats stats, DType dtype) {
        return Formats.parse(format).cost(stats, dtype);
    }

    public long totalBytes() {
        return valueBytes + indexBytes + metadataBytes + paddingBytes;
    }

    /** {@code denseBytes / totalBytes}, metadata and padding included; 1 when both are 0. */
    public double compressionRatio() {
        long total = totalBytes();
        if (total == 0) return denseBytes == 0 ? 1.0 : Double.POSITIVE_INFINITY;
        return (double) denseBytes / total;
    }

    static long denseBytes(int rows, int cols, DType dtype) {
        return (long) rows * cols * dtype.sizeBytes();
    }
}

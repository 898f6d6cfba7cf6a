package dev.sparseprof.sparse;

/**
 * The width of one stored index or pointer, as the byte accounting counts it.
 *
 * <p>Indices are never negative, so the narrow width is unsigned 16-bit: an index into a dimension
 * of extent {@code d} is {@link #U16} when {@code d <= 65536} (largest index 65535), else
 * {@link #I32}. (Java arrays in the formats are {@code int[]} whatever the width, so kernels index
 * them directly; the width is what a packed encoding on disk or on a device needs.) A pointer that
 * counts up to {@code max} (row pointers count up to nnz) is {@code U16} when {@code max <= 65535},
 * {@code I32} up to {@code 2^31 - 1}, else {@link #I64}.
 */
public enum IndexWidth {
    U16(2), I32(4), I64(8);

    private final int sizeBytes;

    IndexWidth(int sizeBytes) {
        this.sizeBytes = sizeBytes;
    }

    public int sizeBytes() {
        return sizeBytes;
    }

    /** The width for indices {@code 0 .. extent-1}. */
    public static IndexWidth forExtent(long extent) {
        return forMaxValue(Math.max(0, extent - 1));
    }

    /** The width for values {@code 0 .. max}. */
    public static IndexWidth forMaxValue(long max) {
        if (max < 0) throw new IllegalArgumentException("negative index bound " + max);
        if (max <= 0xFFFF) return U16;
        if (max <= Integer.MAX_VALUE) return I32;
        return I64;
    }
}

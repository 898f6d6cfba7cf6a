package dev.sparseprof.measure.probe;

import java.util.Locale;

/**
 * The two bandwidth loops of the probe. {@code READ} sums one array (8 bytes per element moved);
 * {@code TRIAD} is STREAM's {@code a[i] = b[i] + s * c[i]} (24 bytes per element counted, the STREAM
 * convention: the write-allocate read of {@code a} is not counted).
 */
public enum StreamKernel {
    READ(1, 8),
    TRIAD(3, 24);

    private final int arrays;
    private final int bytesPerElement;

    StreamKernel(int arrays, int bytesPerElement) {
        this.arrays = arrays;
        this.bytesPerElement = bytesPerElement;
    }

    public int arrays() {
        return arrays;
    }

    public int bytesPerElement() {
        return bytesPerElement;
    }

    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }
}

package dev.sparseprof.model;

/**
 * Per-row (per output channel) affine quantization of a GEMM weight: row {@code r}'s value is
 * {@code (q - zeroPoint[r]) * scale[r]}, so a stored zero point decodes to exactly 0.0f.
 */
record RowQuantization(float[] scales, long[] zeroPoints) {
    RowQuantization {
        if (scales.length != zeroPoints.length) {
            throw new IllegalArgumentException(scales.length + " scales but " + zeroPoints.length + " zero points");
        }
        scales = scales.clone();
        zeroPoints = zeroPoints.clone();
    }

    int rows() {
        return scales.length;
    }

    float scale(int row) {
        return scales[row];
    }

    long zeroPoint(int row) {
        return zeroPoints[row];
    }
}

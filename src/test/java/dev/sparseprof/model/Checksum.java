package dev.sparseprof.model;

/**
 * A dequantized matrix's fingerprint against an outside decoder's (numpy, gguf-py): its non-zero
 * count, its sum and its absolute sum, accumulated in double.
 */
record Checksum(long nonZeros, double sum, double absSum) {
    static Checksum of(float[] values) {
        long nonZeros = 0;
        double sum = 0;
        double abs = 0;
        for (float v : values) {
            nonZeros += v != 0 ? 1 : 0;
            sum += v;
            abs += Math.abs(v);
        }
        return new Checksum(nonZeros, sum, abs);
    }
}

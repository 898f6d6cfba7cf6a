package dev.sparseprof.model;

/**
 * OCP microscaling FP4 (MXFP4): 4-bit E2M1 codes in blocks of 32 sharing one E8M0 scale byte, the
 * form of gpt-oss's expert weights in its safetensors ({@link Mxfp4Matrix}) and of GGUF's
 * {@code MXFP4} ({@link GgufBlockMatrix}). A value is {@code E2M1(code)·2^(e-127)}; the codes 0 and 8
 * (±0) are exactly 0.0f whatever the scale, so zeros stay zeros.
 */
final class Mxfp4 {
    /** Elements per block (one scale). */
    static final int BLOCK = 32;
    /** E2M1 codes 0-15, doubled to integers: 0 0.5 1 1.5 2 3 4 6, then the same negated (ggml's {@code kvalues_mxfp4}). */
    private static final int[] DOUBLED = {0, 1, 2, 3, 4, 6, 8, 12, 0, -1, -2, -3, -4, -6, -8, -12};

    private Mxfp4() {}

    /** The E2M1 value of code {@code code} (0-15): 0, 0.5, 1, 1.5, 2, 3, 4, 6, then the same negated. */
    static float e2m1(int code) {
        return DOUBLED[code] * 0.5f;
    }

    /** Code {@code code} (0-15) of a block whose E8M0 scale byte is {@code e} (0-255): exact, as a power-of-two multiple. */
    static float value(int code, int e) {
        int doubled = DOUBLED[code];
        return doubled == 0 ? 0.0f : Math.scalb((float) doubled, e - 128);
    }
}

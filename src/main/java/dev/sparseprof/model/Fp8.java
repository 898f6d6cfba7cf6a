package dev.sparseprof.model;

/** Decoding of the OCP 8-bit floats (E4M3 with no infinities, E5M2 IEEE-like). */
final class Fp8 {
    private Fp8() {}

    static float e4m3ToFloat(byte b) {
        int sign = (b & 0x80) != 0 ? -1 : 1;
        int exp = (b >> 3) & 0xf;
        int man = b & 0x7;
        if (exp == 0xf && man == 0x7) return Float.NaN;
        if (exp == 0) return sign * (man / 8.0f) * 0x1p-6f;
        return sign * (1 + man / 8.0f) * (float) Math.scalb(1.0, exp - 7);
    }

    static float e5m2ToFloat(byte b) {
        // E5M2 is the top byte of an IEEE half.
        return Float.float16ToFloat((short) ((b & 0xff) << 8));
    }
}

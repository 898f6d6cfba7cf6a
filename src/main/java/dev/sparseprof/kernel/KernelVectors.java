package dev.sparseprof.kernel;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * The vector shape every kernel computes with: the Vector API's preferred float species
 * ({@code FloatVector.SPECIES_PREFERRED}: 512 bits on an AVX-512 CPU, 256 on an AVX2 one), or a
 * narrower one when the system property {@value #CAP_PROPERTY} caps it ({@code 128}, {@code 256}
 * or {@code 512}), so that the 256-bit tiles an AVX2 machine gets can be run, tested and benchmarked
 * on an AVX-512 one ({@code -Dsparseprof.vectorBits=256}, with {@code -XX:UseAVX=2} to also
 * keep the JIT to AVX2 instructions and 16 registers). Read once, when the first kernel class
 * loads: the JIT folds a {@code static final} species into the code, and a species that is not a
 * constant is boxed on every operation.
 */
public final class KernelVectors {
    /** The system property that caps the vector width, in bits. */
    public static final String CAP_PROPERTY = "sparseprof.vectorBits";

    /** The float species of every kernel. */
    public static final VectorSpecies<Float> FLOATS = VectorSpecies.of(float.class,
            VectorShape.forBitSize(bits(FloatVector.SPECIES_PREFERRED.vectorBitSize(), System.getProperty(CAP_PROPERTY))));

    /** The int species of the same shape (index vectors beside the float ones). */
    public static final VectorSpecies<Integer> INTS = IntVector.SPECIES_PREFERRED.vectorBitSize() == FLOATS.vectorBitSize()
            ? IntVector.SPECIES_PREFERRED : VectorSpecies.of(int.class, FLOATS.vectorShape());

    private KernelVectors() {}

    /**
     * The width the kernels use: the preferred width, or the cap when it is a valid narrower width
     * (128, 256 or 512 bits; anything else is ignored, {@link #describe} says so).
     */
    static int bits(int preferredBits, String cap) {
        Integer capBits = parsedCap(cap);
        return capBits == null ? preferredBits : Math.min(preferredBits, capBits);
    }

    private static Integer parsedCap(String cap) {
        if (cap == null) return null;
        return switch (cap.trim()) {
            case "128" -> 128;
            case "256" -> 256;
            case "512" -> 512;
            default -> null;
        };
    }

    /** Vector registers the ISA of a width has: AVX-512's 32, AVX2's (and SSE's) 16. */
    public static int registers(int vectorBits) {
        return vectorBits >= 512 ? 32 : 16;
    }

    /** One line for benchmarks and reports: {@code 512-bit (16 fp32 lanes, preferred)}. */
    public static String describe() {
        String cap = System.getProperty(CAP_PROPERTY);
        int preferred = FloatVector.SPECIES_PREFERRED.vectorBitSize();
        String why = cap == null ? "preferred"
                : parsedCap(cap) == null ? "preferred; " + CAP_PROPERTY + "=" + cap + " ignored: not 128, 256 or 512"
                : FLOATS.vectorBitSize() < preferred ? "capped by " + CAP_PROPERTY + "=" + cap + ", preferred " + preferred
                : "preferred, under the cap " + CAP_PROPERTY + "=" + cap;
        return FLOATS.vectorBitSize() + "-bit (" + FLOATS.length() + " fp32 lanes, " + why + ")";
    }
}

package dev.sparseprof.measure.probe;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Peak-FMA loops: {@link #ACCUMULATORS} independent vector FMA chains, more than latency x ports
 * (4 cycles x 2 ports = 8 on current x86 cores), so the FMA units, not the chains, set the rate.
 * {@code acc = acc * m + a} with {@code m} just below 1 keeps the values finite and normal. The
 * probe's peak and {@code measure}'s speed canary ({@link SpeedCanary}) run them.
 */
public final class FmaLoops {
    static final int ACCUMULATORS = 12;
    private static final VectorSpecies<Double> D = DoubleVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Float> F = FloatVector.SPECIES_PREFERRED;

    private FmaLoops() {}

    /** FLOPs of one call of {@link #fp64} or {@link #fp32} with {@code iterations}. */
    public static double flops(int bits, long iterations) {
        int lanes = bits == 64 ? D.length() : F.length();
        return 2.0 * lanes * ACCUMULATORS * iterations;
    }

    static double fp64(long iterations) {
        DoubleVector m = DoubleVector.broadcast(D, 0.999999);
        DoubleVector a = DoubleVector.broadcast(D, 1e-6);
        DoubleVector c0 = DoubleVector.broadcast(D, 1.0), c1 = c0, c2 = c0, c3 = c0, c4 = c0, c5 = c0;
        DoubleVector c6 = c0, c7 = c0, c8 = c0, c9 = c0, c10 = c0, c11 = c0;
        for (long i = 0; i < iterations; i++) {
            c0 = c0.fma(m, a); c1 = c1.fma(m, a); c2 = c2.fma(m, a); c3 = c3.fma(m, a);
            c4 = c4.fma(m, a); c5 = c5.fma(m, a); c6 = c6.fma(m, a); c7 = c7.fma(m, a);
            c8 = c8.fma(m, a); c9 = c9.fma(m, a); c10 = c10.fma(m, a); c11 = c11.fma(m, a);
        }
        return c0.add(c1).add(c2).add(c3).add(c4).add(c5).add(c6).add(c7).add(c8).add(c9).add(c10).add(c11)
                .reduceLanes(VectorOperators.ADD);
    }

    public static double fp32(long iterations) {
        FloatVector m = FloatVector.broadcast(F, 0.9999f);
        FloatVector a = FloatVector.broadcast(F, 1e-4f);
        FloatVector c0 = FloatVector.broadcast(F, 1.0f), c1 = c0, c2 = c0, c3 = c0, c4 = c0, c5 = c0;
        FloatVector c6 = c0, c7 = c0, c8 = c0, c9 = c0, c10 = c0, c11 = c0;
        for (long i = 0; i < iterations; i++) {
            c0 = c0.fma(m, a); c1 = c1.fma(m, a); c2 = c2.fma(m, a); c3 = c3.fma(m, a);
            c4 = c4.fma(m, a); c5 = c5.fma(m, a); c6 = c6.fma(m, a); c7 = c7.fma(m, a);
            c8 = c8.fma(m, a); c9 = c9.fma(m, a); c10 = c10.fma(m, a); c11 = c11.fma(m, a);
        }
        return c0.add(c1).add(c2).add(c3).add(c4).add(c5).add(c6).add(c7).add(c8).add(c9).add(c10).add(c11)
                .reduceLanes(VectorOperators.ADD);
    }
}

package dev.sparseprof.measure.probe;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/** The hot loops of the bandwidth probe, over primitive arrays; callers own the arrays. */
final class StreamLoops {
    private static final VectorSpecies<Double> S = DoubleVector.SPECIES_PREFERRED;

    private StreamLoops() {}

    /** Sums {@code a} with four independent vector accumulators (so the add latency does not bound it). */
    static double read(double[] a) {
        int lanes = S.length();
        int step = 4 * lanes;
        DoubleVector s0 = DoubleVector.zero(S);
        DoubleVector s1 = DoubleVector.zero(S);
        DoubleVector s2 = DoubleVector.zero(S);
        DoubleVector s3 = DoubleVector.zero(S);
        int i = 0;
        int bound = a.length - step + 1;
        for (; i < bound; i += step) {
            s0 = s0.add(DoubleVector.fromArray(S, a, i));
            s1 = s1.add(DoubleVector.fromArray(S, a, i + lanes));
            s2 = s2.add(DoubleVector.fromArray(S, a, i + 2 * lanes));
            s3 = s3.add(DoubleVector.fromArray(S, a, i + 3 * lanes));
        }
        double sum = s0.add(s1).add(s2.add(s3)).reduceLanes(VectorOperators.ADD);
        for (; i < a.length; i++) sum += a[i];
        return sum;
    }

    /** {@code a[i] = b[i] + s * c[i]}. */
    static void triad(double[] a, double[] b, double[] c, double s) {
        int lanes = S.length();
        DoubleVector sv = DoubleVector.broadcast(S, s);
        int i = 0;
        int bound = S.loopBound(a.length);
        for (; i < bound; i += lanes) {
            DoubleVector.fromArray(S, c, i).fma(sv, DoubleVector.fromArray(S, b, i)).intoArray(a, i);
        }
        for (; i < a.length; i++) a[i] = b[i] + s * c[i];
    }
}

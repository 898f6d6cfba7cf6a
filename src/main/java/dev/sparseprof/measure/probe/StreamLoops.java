package dev.sparseprof.measure.probe;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * The hot loops of the bandwidth probe; callers own the arrays. The read stream runs over a 64-byte
 * aligned off-heap segment ({@link #alignedDoubles}) with eight accumulators: a heap array starts
 * 16 bytes into its object, so every 512-bit load of it spans two cache lines, and four accumulators
 * bound the loop at one add per add latency (4 cycles) where the core retires two loads a cycle;
 * both made the probed L1 and L2 read bandwidths, the roofs the kernels are judged against, too low.
 */
final class StreamLoops {
    private static final VectorSpecies<Double> S = DoubleVector.SPECIES_PREFERRED;
    private static final ByteOrder ORDER = ByteOrder.nativeOrder();
    /** Alignment of the read stream: one cache line. */
    static final long ALIGNMENT_BYTES = 64;

    private StreamLoops() {}

    /** {@code elements} doubles, 64-byte aligned, off-heap, each set to {@code value}. */
    static MemorySegment alignedDoubles(long elements, double value) {
        MemorySegment s = Arena.ofAuto().allocate(elements * Double.BYTES, ALIGNMENT_BYTES);
        for (long i = 0; i < elements; i++) s.setAtIndex(ValueLayout.JAVA_DOUBLE, i, value);
        return s;
    }

    /** Sums the doubles of {@code a} (its size a multiple of 8 bytes) with eight vector accumulators. */
    static double read(MemorySegment a) {
        long vectorBytes = S.vectorByteSize();
        long step = 8 * vectorBytes;
        long size = a.byteSize();
        DoubleVector s0 = DoubleVector.zero(S), s1 = s0, s2 = s0, s3 = s0, s4 = s0, s5 = s0, s6 = s0, s7 = s0;
        long i = 0;
        for (long bound = size - step; i <= bound; i += step) {
            s0 = s0.add(DoubleVector.fromMemorySegment(S, a, i, ORDER));
            s1 = s1.add(DoubleVector.fromMemorySegment(S, a, i + vectorBytes, ORDER));
            s2 = s2.add(DoubleVector.fromMemorySegment(S, a, i + 2 * vectorBytes, ORDER));
            s3 = s3.add(DoubleVector.fromMemorySegment(S, a, i + 3 * vectorBytes, ORDER));
            s4 = s4.add(DoubleVector.fromMemorySegment(S, a, i + 4 * vectorBytes, ORDER));
            s5 = s5.add(DoubleVector.fromMemorySegment(S, a, i + 5 * vectorBytes, ORDER));
            s6 = s6.add(DoubleVector.fromMemorySegment(S, a, i + 6 * vectorBytes, ORDER));
            s7 = s7.add(DoubleVector.fromMemorySegment(S, a, i + 7 * vectorBytes, ORDER));
        }
        double sum = s0.add(s1).add(s2.add(s3)).add(s4.add(s5).add(s6.add(s7))).reduceLanes(VectorOperators.ADD);
        for (; i < size; i += Double.BYTES) sum += a.get(ValueLayout.JAVA_DOUBLE, i);
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

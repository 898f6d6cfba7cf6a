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
 * One call reads the segment {@code passes} times into the same accumulators and reduces them once:
 * a call per pass paid its entry, its eight-way reduction and its tail once per pass, a few dozen
 * cycles on an L1 pass of a few hundred. C2 compiles the pass's loop without bounds checks (the
 * offsets are the counted loop's); a loop that wrapped its offset to run all passes as one (no exit
 * per pass) kept a bounds check per load and read 36 KiB at 57 B/clk where this one reads 91-94 (Intel
 * Xeon VM, model 167, 512 bits, 6 Dec 2026).
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

    /** Sums the doubles of {@code a} (its size a multiple of 8 bytes) {@code passes} times over, with eight vector accumulators. */
    static double read(MemorySegment a, int passes) {
        long vectorBytes = S.vectorByteSize();
        long step = 8 * vectorBytes;
        long size = a.byteSize();
        long body = size - size % step;
        DoubleVector s0 = DoubleVector.zero(S), s1 = s0, s2 = s0, s3 = s0, s4 = s0, s5 = s0, s6 = s0, s7 = s0;
        double tail = 0;
        for (int p = 0; p < passes; p++) {
            for (long i = 0; i < body; i += step) {
                s0 = s0.add(DoubleVector.fromMemorySegment(S, a, i, ORDER));
                s1 = s1.add(DoubleVector.fromMemorySegment(S, a, i + vectorBytes, ORDER));
                s2 = s2.add(DoubleVector.fromMemorySegment(S, a, i + 2 * vectorBytes, ORDER));
                s3 = s3.add(DoubleVector.fromMemorySegment(S, a, i + 3 * vectorBytes, ORDER));
                s4 = s4.add(DoubleVector.fromMemorySegment(S, a, i + 4 * vectorBytes, ORDER));
                s5 = s5.add(DoubleVector.fromMemorySegment(S, a, i + 5 * vectorBytes, ORDER));
                s6 = s6.add(DoubleVector.fromMemorySegment(S, a, i + 6 * vectorBytes, ORDER));
                s7 = s7.add(DoubleVector.fromMemorySegment(S, a, i + 7 * vectorBytes, ORDER));
            }
            for (long i = body; i < size; i += Double.BYTES) tail += a.get(ValueLayout.JAVA_DOUBLE, i);
        }
        return s0.add(s1).add(s2.add(s3)).add(s4.add(s5).add(s6.add(s7))).reduceLanes(VectorOperators.ADD) + tail;
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

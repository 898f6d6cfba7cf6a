package dev.sparseprof.perfmodel.cpu;

import dev.sparseprof.hw.InCoreRates;
import java.util.Arrays;
import java.util.StringJoiner;

/**
 * What one CPU kernel's loop nest executes for one workload at one SIMD width: how many of each
 * {@link LoopBody} it runs, in the units the probe's in-core rates are measured in. Immutable;
 * built with {@link #of} and {@link #and}. {@link #cycles} is the in-core time (ECM's T_core) of
 * the whole call on one core.
 */
public final class LoopCounts {
    private static final LoopBody[] BODIES = LoopBody.values();
    public static final LoopCounts ZERO = new LoopCounts(new double[BODIES.length]);

    private final double[] counts;

    private LoopCounts(double[] counts) {
        this.counts = counts;
    }

    /** {@code count} units of {@code body} and nothing else. */
    public static LoopCounts of(LoopBody body, double count) {
        return ZERO.and(body, count);
    }

    /** These counts with {@code count} more units of {@code body}. */
    public LoopCounts and(LoopBody body, double count) {
        if (!(count >= 0)) throw new IllegalArgumentException("loop counts must not be negative, got " + count + " " + body);
        double[] c = counts.clone();
        c[body.ordinal()] += count;
        return new LoopCounts(c);
    }

    public LoopCounts plus(LoopCounts o) {
        double[] c = counts.clone();
        for (int i = 0; i < c.length; i++) c[i] += o.counts[i];
        return new LoopCounts(c);
    }

    /** The units of {@code body} counted. */
    public double get(LoopBody body) {
        return counts[body.ordinal()];
    }

    /**
     * T_core in cycles: every count at its probed rate; the BSR tiles and N:M rows only where the
     * probe measured their fixed parts apart ({@link InCoreRates#fixedPartsApart}). Where the N:M
     * decode runs in series with the body ({@link InCoreRates#nmDecodeSerial}) it is not here but in
     * {@link #serialCycles}.
     */
    public double cycles(InCoreRates r) {
        return sum(r, !r.nmDecodeSerial());
    }

    /**
     * The cycles that run in series with the rest of the call, no transfer hiding behind them: the
     * N:M decode pass where the probe measured it alone ({@link InCoreRates#nmDecodeSerial}), else 0.
     */
    public double serialCycles(InCoreRates r) {
        if (!r.nmDecodeSerial()) return 0;
        double total = 0;
        for (LoopBody b : BODIES) if (b.decode() && b.counted(r)) total += counts[b.ordinal()] * b.cycles(r);
        return total;
    }

    private double sum(InCoreRates r, boolean withDecode) {
        double total = 0;
        for (LoopBody b : BODIES) {
            if (b.counted(r) && (withDecode || !b.decode())) total += counts[b.ordinal()] * b.cycles(r);
        }
        return total;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LoopCounts l && Arrays.equals(counts, l.counts);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(counts);
    }

    /** The bodies counted, e.g. {@code LoopCounts[SPMV_VECTOR=4.0, SPMV_ROW=2.0]}. */
    @Override
    public String toString() {
        StringJoiner j = new StringJoiner(", ", "LoopCounts[", "]");
        for (LoopBody b : BODIES) if (counts[b.ordinal()] != 0) j.add(b + "=" + counts[b.ordinal()]);
        return j.toString();
    }
}

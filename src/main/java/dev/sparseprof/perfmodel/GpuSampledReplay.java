package dev.sparseprof.perfmodel;

import dev.sparseprof.hw.GpuSpec;
import dev.sparseprof.kernel.GpuGrid;
import dev.sparseprof.kernel.GpuTraceRun;
import dev.sparseprof.kernel.TracedRun;
import dev.sparseprof.memsim.CacheSpecs;
import dev.sparseprof.memsim.Hierarchy;
import dev.sparseprof.memsim.HierarchyStats;
import dev.sparseprof.memsim.LevelStats;
import dev.sparseprof.trace.AccessKind;
import dev.sparseprof.trace.ArrayRole;
import dev.sparseprof.trace.TraceSink;
import java.util.List;
import java.util.Set;

/**
 * GPU memory through the simulator, sampled by SM: {@code kernel}'s GPU-style trace (row-split CSR
 * or tiled dense GEMM, coalesced into sectors, one stream per SM, blocks round-robin) is generated
 * for every SM, but only a representative subset is replayed through the spec's sectored per-SM L1
 * and a shared L2 of the spec's full size ({@code memsim}). Two disjoint subsets A and B of s SMs each
 * (clusters of neighbouring SMs, which share rows of A, at evenly spaced starts; B half a spacing
 * after A) run in their own hierarchy, and their union in a third: the private L1 traffic
 * scales with the SM count (sms / 2s from the union); the shared L2's DRAM traffic is fitted as a
 * line through s SMs (mean of A and B) and 2s SMs and extrapolated to all SMs, bounded by the 2s
 * figure below and by the s figure scaled per SM above (shared B rows are fetched once, not once per
 * subset). The sampling error is the larger relative half-difference between A and B, at L1 (bytes
 * passed to the L2) and at DRAM. With 2s at least the SM count every SM is replayed.
 *
 * <p>The trace lays out 4-byte values; for a 2-byte dtype the value arrays' bytes (A, B, C) are
 * scaled by the element size (exact for whole sectors; the caches saw the fp32 footprint, which is
 * conservative for capacity misses) and the label says so.
 */
final class GpuSampledReplay {
    private static final Set<ArrayRole> INDEX_ROLES = Set.of(ArrayRole.COLUMN_INDICES, ArrayRole.ROW_POINTERS, ArrayRole.METADATA);
    private static final int WARPS_PER_BLOCK = 4;

    private GpuSampledReplay() {}

    static SimulatedTraffic.Replay replay(Workload w, String format, GpuSpec spec, long accessBudget) {
        int sms = spec.sms();
        double perSm = estimatedAccesses(w, format) / sms;
        int s = (int) Math.max(1, Math.min(sms, Math.floor(accessBudget / (4 * Math.max(1, perSm)))));
        int g = Math.min(neighbours(w, format, s), Math.max(1, sms / 8));
        // Whole clusters, and room for B's clusters between A's (a spacing of 4 clusters at least).
        s = (int) Math.min((long) (s + g - 1) / g * g, (long) sms / (4 * g) * g);
        double valueScale = w.dtype().sizeBytes() / (double) Float.BYTES;
        if (s == 0 || sms * perSm <= accessBudget) {
            Hierarchy all = hierarchy(spec, sms);
            TraceSink[] sinks = new TraceSink[sms];
            for (int i = 0; i < sms; i++) sinks[i] = all.core(i);
            trace(w, format, spec, sinks);
            all.close();
            Counts c = Counts.of(all.measured(), valueScale, spec.l1().sectorBytes());
            double dram = Math.min(c.passed[1], dramBound(w, format, spec, c.passed[0]));
            return c.replay(1, c.passed[1] > 0 ? dram / c.passed[1] : 1, dram, 0, label("all " + sms + " SMs", valueScale));
        }
        Hierarchy a = hierarchy(spec, s);
        Hierarchy b = hierarchy(spec, s);
        Hierarchy union = hierarchy(spec, 2 * s);
        TraceSink[] sinks = new TraceSink[sms];
        for (int i = 0; i < sms; i++) sinks[i] = DISCARD;
        int[] subsetA = subset(sms, s, g, false);
        int[] subsetB = subset(sms, s, g, true);
        for (int i = 0; i < s; i++) {
            sinks[subsetA[i]] = new Tee(a.core(i), union.core(2 * i));
            sinks[subsetB[i]] = new Tee(b.core(i), union.core(2 * i + 1));
        }
        trace(w, format, spec, sinks);
        a.close();
        b.close();
        union.close();
        Counts ca = Counts.of(a.measured(), valueScale, spec.l1().sectorBytes());
        Counts cb = Counts.of(b.measured(), valueScale, spec.l1().sectorBytes());
        Counts cu = Counts.of(union.measured(), valueScale, spec.l1().sectorBytes());
        double dSmall = (ca.passed[1] + cb.passed[1]) / 2;
        double dBig = cu.passed[1];
        double slope = (dBig - dSmall) / s;
        double extrapolated = Math.min(dSmall * sms / s, Math.max(dBig, dBig + slope * (sms - 2 * s)));
        // Shared data (B, and A's rows shared by a cluster) reaches DRAM once however many SMs
        // read it: the extrapolation never goes past what a cold L2 lets through (the physical bound).
        double dram = Math.max(dBig, Math.min(extrapolated, dramBound(w, format, spec, cu.passed[0] * sms / (2.0 * s))));
        double error = Math.max(halfDifference(ca.passed[0], cb.passed[0]), halfDifference(ca.passed[1], cb.passed[1]));
        return cu.replay(sms / (2.0 * s), dBig > 0 ? dram / dBig : 1, dram, error,
                label(2 * s + " of " + sms + " SMs, 2 subsets", valueScale));
    }

    /**
     * The most bytes the whole GPU's L2 can pass to DRAM for this kernel: when the footprint (A, B
     * and C in the workload's dtype, indices at 4 bytes) fits the L2, each distinct byte is
     * fetched once and C written back once (compulsory misses only); otherwise every byte that
     * arrives at the L2 ({@code l2ArrivingBytes}, the L1 misses of all SMs) may miss, and not
     * less than the compulsory figure.
     */
    static double dramBound(Workload w, String format, GpuSpec spec, double l2ArrivingBytes) {
        double e = w.dtype().sizeBytes();
        double a = format.equals("dense") ? (double) w.rows() * w.cols() * e : w.nnz() * (e + Integer.BYTES) + (w.rows() + 1.0) * Integer.BYTES;
        double b = (double) w.cols() * w.denseColumns() * e;
        double c = (double) w.rows() * w.denseColumns() * e;
        double compulsory = a + b + 2 * c;
        return a + b + c <= spec.l2().sizeBytes() ? compulsory : Math.max(compulsory, l2ArrivingBytes);
    }

    /**
     * How many consecutive SMs share rows of A (blocks are dealt round-robin, so consecutive blocks
     * sit on consecutive SMs): a dense tile row's blocks, or the blocks of one CSR row's column tiles.
     * Subsets are made of clusters this wide, so the L2 sees that sharing as the full GPU does.
     */
    private static int neighbours(Workload w, String format, int s) {
        double tiles = Math.ceil(w.denseColumns() / 32.0);
        double g = format.equals("dense") ? tiles : Math.ceil(tiles / WARPS_PER_BLOCK);
        return (int) Math.max(1, Math.min(s, g));
    }

    /** {@code s} SMs ({@code s} a multiple of {@code g}, {@code 4s <= sms}) in clusters of {@code g} consecutive ones at evenly spaced starts; {@code shifted}: half a spacing on (disjoint from the other). */
    static int[] subset(int sms, int s, int g, boolean shifted) {
        int clusters = s / g;
        int[] out = new int[s];
        int k = 0;
        for (int c = 0; c < clusters; c++) {
            // Aligned to g, so a cluster holds whole groups of SMs that share rows of A.
            long start = (long) c * sms / clusters / g * g + (shifted ? sms / (2L * clusters) / g * g : 0);
            for (int j = 0; j < g; j++) out[k++] = (int) ((start + j) % sms);
        }
        return out;
    }

    private static String label(String sampled, double valueScale) {
        return "simulated (memsim GPU, " + sampled + (valueScale != 1 ? ", fp32 trace scaled to " + (int) (valueScale * 32) + "-bit values" : "") + ")";
    }

    private static double halfDifference(double x, double y) {
        return x + y > 0 ? Math.abs(x - y) / (x + y) : 0;
    }

    private static Hierarchy hierarchy(GpuSpec spec, int sms) {
        return new Hierarchy(CacheSpecs.fromHardware(spec, sms));
    }

    private static void trace(Workload w, String format, GpuSpec spec, TraceSink[] sinks) {
        int n = (int) Math.min(Integer.MAX_VALUE, w.denseColumns());
        GpuGrid grid = new GpuGrid(spec.sms(), WARPS_PER_BLOCK, spec.l1().sectorBytes());
        GpuTraceRun.trace(format, w.matrix(), grid, new TracedRun.Settings(n, 1, null, 1 << 20, 128), sinks);
    }

    /** Sector accesses the generator pushes in all (value, index and B sectors per entry; A and B tiles per K step). */
    static double estimatedAccesses(Workload w, String format) {
        double tiles = Math.ceil(w.denseColumns() / 32.0);
        if (format.equals("dense")) {
            double blocks = Math.ceil(w.rows() / 32.0) * tiles;
            return blocks * (Math.ceil(w.cols() / 32.0) * 256 + 128);
        }
        return tiles * (w.nnz() * 6.0 + w.rows() * 5.0);
    }

    /** Per-level bytes of one hierarchy: L1 (summed over its instances) and L2, value roles scaled. */
    private record Counts(double[] arriving, double[] passed, double[] indexPassed, double[] missRates) {
        static Counts of(HierarchyStats stats, double valueScale, int sectorBytes) {
            double[] arriving = new double[2];
            double[] passed = new double[2];
            double[] index = new double[2];
            double[] fetches = new double[2];
            double[] misses = new double[2];
            for (LevelStats l : stats.levels()) {
                int lvl = SimulatedTraffic.baseName(l.name()).equals("L1") ? 0 : 1;
                double weighted = 0;
                double indexEvents = 0;
                double events = 0;
                double arrivingWeighted = 0;
                double accesses = 0;
                for (ArrayRole r : ArrayRole.values()) {
                    double f = INDEX_ROLES.contains(r) ? 1 : valueScale;
                    double e = l.roles().misses(r) + l.roles().writeBacks(r);
                    weighted += e * f;
                    events += e;
                    if (INDEX_ROLES.contains(r)) indexEvents += e;
                    arrivingWeighted += l.roles().accesses(r) * f;
                    accesses += l.roles().accesses(r);
                }
                double bytes = l.bytesFromBelow() + l.bytesToBelow();
                double scale = events > 0 ? weighted / events : valueScale;
                passed[lvl] += bytes * scale;
                index[lvl] += events > 0 ? bytes * indexEvents / events : 0;
                double arriveScale = accesses > 0 ? arrivingWeighted / accesses : valueScale;
                arriving[lvl] += l.fetches().total() * (double) sectorBytes * arriveScale;
                fetches[lvl] += l.fetches().total();
                misses[lvl] += l.misses().total();
            }
            double[] rates = {fetches[0] > 0 ? misses[0] / fetches[0] : 0, fetches[1] > 0 ? misses[1] / fetches[1] : 0};
            return new Counts(arriving, passed, index, rates);
        }

        /** Scaled to all SMs: L1 and L2 arrivals by {@code perSm}, DRAM as given, index shares kept. */
        SimulatedTraffic.Replay replay(double perSm, double dramScale, double dramBytes, double error, String label) {
            double[] a = {arriving[0] * perSm, arriving[1] * perSm};
            double[] p = {passed[0] * perSm, dramBytes};
            double[] x = {indexPassed[0] * perSm, indexPassed[1] * dramScale};
            return new SimulatedTraffic.Replay(List.of("L1", "L2"), a, p, x, missRates.clone(), error, 1, 0, label);
        }
    }

    private static final TraceSink DISCARD = (kind, address, sizeBytes, role) -> {};

    /** Feeds one SM's stream to its subset's hierarchy and to the union's. */
    private record Tee(TraceSink first, TraceSink second) implements TraceSink {
        @Override
        public void access(AccessKind kind, long address, int sizeBytes, ArrayRole role) {
            first.access(kind, address, sizeBytes, role);
            second.access(kind, address, sizeBytes, role);
        }
    }
}

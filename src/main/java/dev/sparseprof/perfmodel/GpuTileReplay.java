package dev.sparseprof.perfmodel;

import dev.sparseprof.hw.CacheLevel;
import dev.sparseprof.hw.ComputeUnit;
import dev.sparseprof.hw.GpuSpec;
import dev.sparseprof.memsim.CacheConfig;
import dev.sparseprof.perfmodel.gpu.GemmPlan;
import dev.sparseprof.perfmodel.gpu.GpuGemm;
import dev.sparseprof.perfmodel.gpu.TileSchedule;
import dev.sparseprof.trace.ArrayRole;
import dev.sparseprof.util.DType;
import dev.sparseprof.util.Units;
import java.util.List;

/**
 * The memsim check of a GPU dense GEMM's analytical traffic: the plan's own CTA tiles, in the order
 * the library starts them ({@link TileSchedule}), replayed through the spec's L2 (the tiles' loads
 * bypass the L1, {@code cp.async.cg} / TMA) as the two partitions it is built of
 * ({@link PartitionedL2}: half the capacity each, each caching what its SMs read, a line both halves
 * read held twice), so the L2's capacity and LRU decide what the schedule re-reads from DRAM, where
 * the analytical plan assumes it (every byte once, or each round's strips afresh).
 *
 * <p>What is replayed: every CTA of the whole layer, in rounds of the CTAs resident at once (those
 * start and end together), each round's CTAs interleaved k-step by k-step (they run concurrently),
 * each CTA reading one segment of its K range per row of A and per column of B (both K-major, as a
 * linear layer's weight and activations are) per step, then writing its C tile (split-K: its fp32
 * partial, and a reduction reads every partial and writes C). Sampled along K only: when the whole
 * replay would exceed the access budget, each CTA replays the first {@code r} of its {@code steps}
 * k-steps, and every footprint the L2 holds shrinks by the same share {@code rho} = replayed K / K:
 * A and B (K-long rows), the C tiles and partials (written as {@code rho} of their bytes) and the
 * L2 itself (each partition's sets scaled by {@code rho}, ways and lines kept), so the schedule sees the same
 * capacity in proportion, warm from the rounds before it, and no tile choice, grid or round moves
 * with the budget. DRAM reads scale back by {@code 1 / rho}, writes by C and partials' real over
 * replayed bytes. The L2 requests are the schedule's by construction (each CTA's strips, C,
 * partials); what the replay checks is DRAM. As the budget grows {@code r} reaches {@code steps} and
 * the replay is the whole kernel.
 */
final class GpuTileReplay {
    private static final long ALIGN = 4096;
    /** The split-K workspace's role in the replay (no array role of its own). */
    private static final ArrayRole WORKSPACE = ArrayRole.UNKNOWN;

    private GpuTileReplay() {}

    /** The check of the dense GEMM of {@code w} on {@code g}, at most about {@code accessBudget} accesses (at least one k-step of every CTA). */
    static TrafficCheck check(Workload w, GpuSpec g, long accessBudget) {
        return check(w, g, accessBudget, false);
    }

    /**
     * The same, with the SMs' sides chosen by {@code alternate}: false, SMs 0 .. sms/2 - 1 on
     * partition 0 and the rest on 1 (the GPCs in SM-number order); true, even SMs on 0 and odd on 1
     * (which GPC an SM number lies in is not published; the sweep shows what the choice moves).
     */
    static TrafficCheck check(Workload w, GpuSpec g, long accessBudget, boolean alternate) {
        ComputeUnit unit = Machine.denseUnit(g, w.dtype());
        DType compute = unit == ComputeUnit.TENSOR ? w.dtype() : Machine.vectorDType(w.dtype());
        FormatModel dense = FormatModels.byName("dense");
        double aBytes = dense.storedBytes(w);
        GemmPlan p = TiledGemm.gemm(w, g, unit, compute, aBytes, 0);
        Traffic a = AnalyticalTraffic.estimate(dense.plan(w, g).streams(), g, Features.ALL);
        TileSchedule s = TileSchedule.of(p, w.rows(), g, GpuGemm.hopperKernels(g, unit), GpuGemm.swizzle(g, unit));
        int aB = (int) Math.round(aBytes / ((double) w.rows() * w.cols()));
        Replay r = replay(w.rows(), w.cols(), p, s, aB, compute.sizeBytes(), g.l2(), g.sms(), alternate, accessBudget);
        String label = w.rows() + "x" + w.cols() + "x" + w.denseColumns() + " (" + p.schedule() + ", " + r.rounds + (r.rounds == 1 ? " round" : " rounds")
                + (r.stepsReplayed < r.steps ? "; " + r.stepsReplayed + " of " + r.steps + " k-steps, L2 2 x " + Units.formatBytes(r.l2Bytes / 2) : "; all k-steps, L2 2 partitions") + ")";
        return new TrafficCheck(w.name(), label, List.of("L2", "DRAM"), new double[] {r.l2Requests, r.dramBytes}, new double[] {a.bytesAt(1), a.dramBytes()});
    }

    /** What one replay gave, scaled to the whole kernel. */
    record Replay(double l2Requests, double dramBytes, long rounds, long stepsReplayed, long steps, long l2Bytes) {}

    /**
     * Replays plan {@code p} of an {@code m x k} A ({@code aB} bytes an element) and a B of
     * {@code p.paddedColumns()} columns ({@code e} bytes, as C) in schedule {@code s} through an L2
     * of geometry {@code l2} scaled with the K share replayed, as two partitions of half its sets
     * ({@link PartitionedL2}), CTA {@code c} of a round on SM {@code c mod sms} (the block scheduler
     * gives every SM one CTA before any a second) and that SM on side {@code sm * 2 / sms}, or
     * {@code sm mod 2} when {@code alternate}.
     */
    static Replay replay(long m, long k, GemmPlan p, TileSchedule s, int aB, int e, CacheLevel l2, int sms, boolean alternate, long accessBudget) {
        int rows = p.tile().rows();
        int cols = p.tile().cols();
        long n = p.paddedColumns();
        int split = p.splitK();
        long tk = Math.max(1, p.tile().kBytes() / e);
        // A split's K range is whole k-tiles (CUTLASS's gemm_k_size), the last split takes the rest.
        long steps = ((k + split - 1) / split + tk - 1) / tk;
        long kPer = steps * tk;
        double perStep = (double) p.ctas() * (rows + cols);
        long r = Math.max(1, Math.min(steps, (long) Math.floor(accessBudget / perStep)));
        // Each split replays the first r k-steps of its K range; A and B rows are laid out kRep long.
        long[] depth = new long[split];
        long[] offset = new long[split];
        long kRep = 0;
        for (int z = 0; z < split; z++) {
            long len = Math.max(0, Math.min(kPer, k - z * kPer));
            depth[z] = Math.min(len, r * tk);
            offset[z] = kRep;
            kRep += depth[z];
        }
        double rho = (double) kRep / k;
        int sector = l2.sectorBytes();
        long halfSets = Math.max(1, Math.round(l2.sets() * rho / 2));
        long l2Bytes = 2 * halfSets * l2.ways() * l2.lineBytes();
        CacheConfig half = CacheConfig.of("L2", l2Bytes / 2, l2.lineBytes(), l2.ways()).withSectors(l2.lineBytes() / sector);
        PartitionedL2 h = new PartitionedL2(half);
        long cSlot = roundUp((long) Math.ceil(rows * (double) cols * e * rho), sector);
        long pSlot = roundUp((long) Math.ceil(rows * (double) cols * Float.BYTES * rho), sector);
        long baseA = 0;
        long baseB = roundUp(baseA + m * kRep * aB, ALIGN);
        long tiles = s.tilesM() * s.tilesN();
        long baseC = roundUp(baseB + n * kRep * e, ALIGN);
        long baseP = roundUp(baseC + tiles * cSlot, ALIGN);

        long concurrent = s.concurrent();
        long[][] round = new long[(int) Math.min(concurrent, p.ctas())][3];
        long[] t = new long[3];
        double requests = 0; // A and B bytes requested, replayed
        double cWritten = 0;
        double pWritten = 0;
        long rounds = 0;
        int filled = 0;
        long slots = s.slots();
        for (long i = 0; i <= slots; i++) {
            boolean last = i == slots;
            if (!last && s.tile(i, t)) {
                System.arraycopy(t, 0, round[filled++], 0, 3);
                if (filled < round.length) continue;
            } else if (!last || filled == 0) {
                continue;
            }
            rounds++;
            for (long step = 0; step < r; step++) {
                for (int c = 0; c < filled; c++) {
                    int z = (int) round[c][2];
                    int sm = c % sms;
                    int side = alternate ? sm & 1 : (int) (sm * 2L / sms);
                    long at = step * tk;
                    if (at >= depth[z]) continue;
                    long seg = Math.min(tk, depth[z] - at);
                    long m0 = round[c][0] * rows;
                    long n0 = round[c][1] * cols;
                    long rowsHere = Math.min(rows, m - m0);
                    long colsHere = Math.min(cols, n - n0);
                    for (long row = m0; row < m0 + rowsHere; row++) {
                        h.read(side, baseA + (row * kRep + offset[z] + at) * aB, (int) (seg * aB), ArrayRole.DENSE_A);
                    }
                    for (long col = n0; col < n0 + colsHere; col++) {
                        h.read(side, baseB + (col * kRep + offset[z] + at) * e, (int) (seg * e), ArrayRole.B_GATHER);
                    }
                    requests += seg * (rowsHere * aB + colsHere * e);
                }
            }
            for (int c = 0; c < filled; c++) {
                long tile = round[c][0] * s.tilesN() + round[c][1];
                long share = outputShare(m, n, rows, cols, round[c], split > 1 ? Float.BYTES : e, rho, sector);
                if (split > 1) {
                    h.write(baseP + (tile * split + round[c][2]) * pSlot, (int) share, WORKSPACE);
                    pWritten += share;
                } else {
                    h.write(baseC + tile * cSlot, (int) share, ArrayRole.C_SCATTER);
                    cWritten += share;
                }
            }
            filled = 0;
        }
        if (split > 1) {
            // The reduction kernel: every tile's partials read, its C written.
            long[] tm = new long[3];
            for (long tile = 0; tile < tiles; tile++) {
                tm[0] = tile / s.tilesN();
                tm[1] = tile % s.tilesN();
                long pShare = outputShare(m, n, rows, cols, tm, Float.BYTES, rho, sector);
                // The reduction kernel's block for this tile runs on SM tile mod sms, as the main loop's CTAs do.
                int sm = (int) (tile % sms);
                int side = alternate ? sm & 1 : (int) (sm * 2L / sms);
                for (int z = 0; z < split; z++) h.read(side, baseP + (tile * split + z) * pSlot, (int) pShare, WORKSPACE);
                long cShare = outputShare(m, n, rows, cols, tm, e, rho, sector);
                h.write(baseC + tile * cSlot, (int) cShare, ArrayRole.C_SCATTER);
                cWritten += cShare;
            }
        }
        // The kernel's DRAM traffic: its reads, the write-backs its evictions forced, and C, which
        // the final write-back flushes; the partials' lines left dirty at the end are dead (the
        // workspace is overwritten by the next call), not this kernel's traffic.
        long deadBefore = h.dramWriteBytes(WORKSPACE);
        h.flush();
        double dead = h.dramWriteBytes(WORKSPACE) - deadBefore;
        double realC = (double) m * n * e;
        double realP = split > 1 ? (double) m * n * Float.BYTES * split : 0;
        double outScale = (realC + realP) / (cWritten + pWritten);
        double dram = h.dramReadBytes() / rho + (h.dramWriteBytes() - dead) * outScale;
        double l2Requests = requests / rho + realC + 2 * realP;
        return new Replay(l2Requests, dram, rounds, r, steps, l2Bytes);
    }

    /** The replayed share of a tile's output ({@code bytes} an element): {@code rho} of its real bytes, in whole sectors. */
    private static long outputShare(long m, long n, int rows, int cols, long[] tile, int bytes, double rho, int sector) {
        long rowsHere = Math.min(rows, m - tile[0] * rows);
        long colsHere = Math.min(cols, n - tile[1] * cols);
        return Math.max(sector, roundUp((long) Math.ceil(rowsHere * colsHere * bytes * rho), sector));
    }

    private static long roundUp(long x, long to) {
        return (x + to - 1) / to * to;
    }
}

package dev.sparseprof.perfmodel.gpu;

import dev.sparseprof.hw.GpuSpec;
import dev.sparseprof.perfmodel.Balance;
import dev.sparseprof.sparse.stats.Lengths;

/**
 * CSR SpMM {@code C = A·B} on CUDA cores, one task per (row of A, column tile of B), as the GPU
 * libraries map it. Two mappings:
 * <ul>
 * <li>{@link Variant#SPUTNIK} (Gale et al., SC20, "Sparse GPU Kernels for Deep Learning"): 1-D
 *     tiling of the output rows; each lane loads {@code 16 / e} elements of a B row with one vector
 *     load, so a task's column tile is {@code warp x 16/e} columns, or, when N is smaller, a
 *     subwarp of the fewest power-of-two lanes covering N (several rows share a warp, no lane
 *     idles); A's values and indices are staged through shared memory in chunks and read back as
 *     broadcasts; rows are swizzled (sorted by length, longest first) before they are dealt to
 *     the SMs, so the schedule is longest-processing-time first.
 * <li>{@link Variant#ROW_SPLIT} (a cuSPARSE-like CSR SpMM): one warp per row and 32-column tile,
 *     one element per lane (scalar loads, lanes past N idle), the row's value and column index
 *     loaded by the whole warp for every non-zero, rows dealt in their natural order.
 * </ul>
 * Per non-zero and column tile, the B row segment is gathered in 32 B sectors; a warp-wide load
 * instruction costs the L1 at least one wavefront (the bytes it moves per clock and SM:
 * bandwidth / (SMs x clock)), so scalar 2-byte loads use a fraction of it. A task is a chain of
 * dependent loads: its row pointer, then per chunk of {@code warp} non-zeros the chunk of A (from
 * DRAM through the L2) followed by its B gathers (from the L2); the kernel takes at least the
 * longest chain, and at least the sum of the chains over the warps resident at once
 * ({@code residentWarpsPerSm x SMs}, a task per subwarp). The load balance comes from the real
 * row lengths: a task's work is its non-zeros plus one, dealt in thread blocks of
 * {@link #WARPS_PER_BLOCK} warps to whichever SM frees first.
 */
public final class RowSplitSpmm {
    /** Warps of a thread block in both mappings (U: Sputnik's and cuSPARSE's launch shapes vary with the problem). */
    public static final int WARPS_PER_BLOCK = 4;

    /** The two mappings; {@code name} is what a kernel description shows. */
    public enum Variant {
        SPUTNIK("Sputnik 1-D tiling, row swizzle, vector loads"),
        ROW_SPLIT("cuSPARSE-like row split, scalar loads");

        private final String description;

        Variant(String description) {
            this.description = description;
        }

        public String description() {
            return description;
        }
    }

    /**
     * One layer's mapping: the column tile and count of tiles, the lanes of one task, the share
     * of lanes doing useful work, the L1 bytes one gather of a B segment costs (sector- and
     * wavefront-rounded), the L1 bytes of A's value and index a non-zero costs per tile beyond
     * its streamed bytes (broadcast loads), the SM schedule and the latency bound.
     */
    public record Mapping(int columnTile, long columnTiles, int lanesPerTask, double laneUtilisation, double l1BytesPerGather,
                          double l1BroadcastBytesPerNonZero, Balance balance, double latencySeconds) {
        public Mapping {
            if (columnTile <= 0 || columnTiles <= 0 || lanesPerTask <= 0) throw new IllegalArgumentException("empty tiling");
            if (!(laneUtilisation > 0 && laneUtilisation <= 1)) throw new IllegalArgumentException("lane utilisation " + laneUtilisation);
            if (!(l1BytesPerGather >= 0) || !(l1BroadcastBytesPerNonZero >= 0) || !(latencySeconds >= 0)) {
                throw new IllegalArgumentException("negative cost");
            }
        }
    }

    private RowSplitSpmm() {}

    /** The mapping of an A with row lengths {@code rows} times a B of {@code n} columns of {@code elementBytes} each. */
    public static Mapping map(Variant v, GpuSpec g, Lengths rows, long n, int elementBytes) {
        int warp = g.warpSize();
        int perLane = v == Variant.SPUTNIK ? Math.max(1, 16 / elementBytes) : 1;
        int lanes = warp;
        if (v == Variant.SPUTNIK) {
            long needed = (n + perLane - 1) / perLane;
            lanes = (int) Math.min(warp, Long.highestOneBit(Math.max(1, needed - 1)) << (needed > 1 ? 1 : 0));
            lanes = Math.max(1, lanes);
        }
        int tile = lanes * perLane;
        long tiles = (n + tile - 1) / tile;
        double utilisation = (double) n / (tiles * tile);
        int sector = g.l1().sectorBytes();
        double wavefront = g.l1().bandwidthBytesPerSecond() / (g.sms() * g.clockHertz());
        // One gather per tile: the tile's B bytes in whole sectors, at least one wavefront per
        // load instruction (a lane's vector or scalar load is one instruction per tile).
        long last = n - (tiles - 1) * tile;
        double perGather = (tiles - 1) * Math.max(roundUp((double) tile * elementBytes, sector), wavefront)
                + Math.max(roundUp((double) last * elementBytes, sector), wavefront);
        double broadcast = v == Variant.ROW_SPLIT ? 2 * wavefront : 0;
        Balance balance = schedule(v, rows, tiles, g.sms());
        double latency = latencySeconds(g, rows, tiles, warp / lanes);
        return new Mapping(tile, tiles, lanes, utilisation, perGather / tiles, broadcast, balance, latency);
    }

    /**
     * The dependent-load bound: a task waits for its row pointer, then per chunk of {@code warp}
     * non-zeros for the chunk of A (L2 plus DRAM latency) and its B gathers (L2 latency); the
     * kernel takes at least its longest chain and the chains of all tasks over the resident warps'
     * tasks ({@code tasksPerWarp} per warp).
     */
    public static double latencySeconds(GpuSpec g, Lengths rows, long tiles, int tasksPerWarp) {
        double link = chunkSeconds(g);
        double pointer = aLoadSeconds(g);
        int warp = g.warpSize();
        double longest = 0;
        double sum = 0;
        for (int r = 0; r < rows.count(); r++) {
            long chunks = (rows.get(r) + warp - 1) / warp;
            double chain = pointer + chunks * link;
            longest = Math.max(longest, chain);
            sum += chain;
        }
        double concurrent = (double) g.residentWarpsPerSm() * g.sms() * tasksPerWarp;
        return Math.max(longest, sum * tiles / concurrent);
    }

    /** A load of A's arrays: first touch, from DRAM through the L2. */
    static double aLoadSeconds(GpuSpec g) {
        return g.l2().latencyCycles() / g.clockHertz() + g.dram().latencySeconds();
    }

    /** One link of a chain: a chunk of A, then the B gathers it addresses (from the L2). */
    public static double chunkSeconds(GpuSpec g) {
        return aLoadSeconds(g) + g.l2().latencyCycles() / g.clockHertz();
    }

    /**
     * Thread blocks of {@link #WARPS_PER_BLOCK} warps' tasks, each block to whichever SM frees
     * first; Sputnik deals the rows longest first (its swizzle), the row split in natural order.
     * A task's work is its row's non-zeros plus one (its fixed part).
     */
    static Balance schedule(Variant v, Lengths rows, long tiles, int sms) {
        int m = rows.count();
        int[] order = v == Variant.SPUTNIK ? longestFirst(rows) : null;
        long tasks = (long) m * tiles;
        SmSchedule schedule = new SmSchedule(sms);
        for (long b = 0; b < tasks; b += WARPS_PER_BLOCK) {
            double w = 0;
            for (long t = b; t < Math.min(tasks, b + WARPS_PER_BLOCK); t++) {
                int row = (int) (t % m); // task t: row t % m (in the dealing order) of column tile t / m
                w += rows.get(order == null ? row : order[row]) + 1;
            }
            schedule.deal(w);
        }
        String name = v == Variant.SPUTNIK ? "swizzled rows (longest first)" : "rows in order";
        return schedule.balance(name + ", " + WARPS_PER_BLOCK + " warps/block over " + sms + " SMs", 0);
    }

    /** Row indices by length, longest first (a counting sort: lengths are at most K). */
    static int[] longestFirst(Lengths rows) {
        int m = rows.count();
        int max = 0;
        for (int r = 0; r < m; r++) max = Math.max(max, rows.get(r));
        int[] start = new int[max + 2];
        for (int r = 0; r < m; r++) start[max - rows.get(r) + 1]++;
        for (int i = 1; i < start.length; i++) start[i] += start[i - 1];
        int[] out = new int[m];
        for (int r = 0; r < m; r++) out[start[max - rows.get(r)]++] = r;
        return out;
    }

    private static double roundUp(double bytes, int granule) {
        return Math.ceil(bytes / granule) * granule;
    }
}

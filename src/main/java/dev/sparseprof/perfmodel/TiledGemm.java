package dev.sparseprof.perfmodel;

import dev.sparseprof.hw.CacheLevel;
import dev.sparseprof.hw.ComputeUnit;
import dev.sparseprof.hw.GpuSpec;
import dev.sparseprof.hw.HardwareSpec;
import dev.sparseprof.util.DType;
import java.util.ArrayList;
import java.util.List;

/**
 * The tiled GEMM behind dense and 2:4 kernels (cuBLAS / cuSPARSELt style on a GPU, a register-
 * blocked loop on a CPU). On a GPU the output is cut into tiles, one per SM at a time, each run
 * through the {@link TilePipeline} (K steps bound by math, L2 copy or shared memory, plus fill,
 * drain and per-step sync): the tile shape is the one (from the spec's {@code tensorTile} halved
 * down to 32x32) that minimises the larger of waves x tile time and the L2 time, as a library's
 * heuristic would, and the tensor cores' efficiency is the mean tile's math over its pipeline time;
 * each tile reads its strip of A and of B through L2. On a CPU each thread owns 8-row panels; B is re-read
 * per 64-row block from the caches.
 */
final class TiledGemm {
    /** K columns a tiled GEMM's main loop consumes per step (a typical cuBLAS/CUTLASS K tile). */
    static final int K_SLICE = 32;

    private TiledGemm() {}

    static KernelPlan plan(String format, String kernel, Workload w, HardwareSpec spec, ComputeUnit unit, DType computeDType,
                           double executedFlops, double aValueBytes, double aMetadataBytes) {
        long m = w.rows();
        long n = w.denseColumns();
        double e = w.dtype().sizeBytes();
        double bBytes = (double) w.cols() * n * e;
        double cBytes = (double) m * n * e;
        double peak = spec.peaks().flopsPerSecond(unit, computeDType);
        List<DataStream> streams = new ArrayList<>(4);
        Balance balance;
        double efficiency = 1;
        if (spec instanceof GpuSpec g) {
            int bestRows = 0;
            int bestCols = 0;
            double bestTime = Double.POSITIVE_INFINITY;
            CacheLevel l2 = g.l2();
            boolean sparse = unit == ComputeUnit.SPARSE_TENSOR;
            double aPerElement = (aValueBytes + aMetadataBytes) / ((double) m * w.cols());
            double bestTile = 0;
            int bestResident = 1;
            for (int tr = spec.overheads().tensorTileRows(), tc = spec.overheads().tensorTileCols();
                 tr >= 32 && tc >= 32; tr /= 2, tc /= 2) {
                long tilesM = (m + tr - 1) / tr;
                long tilesN = (n + tc - 1) / tc;
                long waves = (tilesM * tilesN + g.sms() - 1) / g.sms();
                TilePipeline.Tile tile = TilePipeline.tile(g, (int) Math.min(tr, m), (int) Math.min(tc, n), w.cols(), aPerElement,
                        (int) e, peak, sparse);
                int resident = tile.blocksPerSm(g);
                double pipeline = tile.seconds(waves, resident);
                double l2Bytes = tilesN * (aValueBytes + aMetadataBytes) + tilesM * bBytes;
                double t = Math.max(pipeline, l2.hasBandwidth() ? l2Bytes / l2.bandwidthBytesPerSecond() : 0);
                if (t < bestTime * (1 - 1e-9)) {
                    bestTime = t;
                    bestRows = tr;
                    bestCols = tc;
                    bestTile = pipeline / waves;
                    bestResident = resident;
                }
            }
            long tilesM = (m + bestRows - 1) / bestRows;
            long tilesN = (n + bestCols - 1) / bestCols;
            balance = LoadBalance.tileWaves(tilesM * tilesN, g.sms());
            balance = new Balance(bestRows + "x" + bestCols + " tiles, " + bestResident + " blocks/SM, " + balance.schedule(), balance.factor(),
                    balance.maxWork(), balance.meanWork());
            // Tile loads go to shared memory through the L2 only; a wave of tiles shares one K-slice of
            // its A and B strips at a time (K_SLICE columns), which is what the L2 must hold for reuse.
            double waveTiles = Math.min(tilesM * tilesN, g.sms());
            double sliceA = waveTiles * bestRows * K_SLICE * (aValueBytes + aMetadataBytes) / ((double) m * w.cols());
            double sliceB = waveTiles * bestCols * K_SLICE * e;
            streams.add(new DataStream("A", tilesN * aValueBytes, aValueBytes, sliceA, true, false, true));
            if (aMetadataBytes > 0) {
                streams.add(new DataStream("metadata", tilesN * aMetadataBytes, aMetadataBytes, sliceA * aMetadataBytes / aValueBytes,
                        true, true, true));
            }
            streams.add(new DataStream("B", tilesM * bBytes, bBytes, sliceB, true, false, true));
            // The roofline's compute term is FLOPs / peak x wave factor = waves x the mean tile's math;
            // the tile pipeline makes a tile take bestTile, so the tensor cores run at that fraction.
            double meanTileMath = executedFlops / (tilesM * tilesN) / (peak / g.sms());
            efficiency = Math.min(1, meanTileMath / bestTile);
        } else {
            long panels = (m + 7) / 8;
            balance = LoadBalance.tileWaves(panels, spec.parallelUnits());
            long blocks = (m + 63) / 64;
            streams.add(DataStream.streamed("A", aValueBytes, false));
            if (aMetadataBytes > 0) streams.add(DataStream.streamed("metadata", aMetadataBytes, true));
            streams.add(DataStream.gathered("B", blocks * bBytes, bBytes));
        }
        streams.add(DataStream.streamed("C", cBytes, false));
        return new KernelPlan(format, kernel, unit, computeDType, executedFlops, streams, balance, Machine.launchSeconds(spec),
                efficiency * spec.overheads().denseEfficiency(), 0);
    }
}

package dev.sparseprof.perfmodel;

import dev.sparseprof.hw.CacheLevel;
import dev.sparseprof.hw.ComputeUnit;
import dev.sparseprof.hw.CpuSpec;
import dev.sparseprof.hw.GpuSpec;
import dev.sparseprof.hw.HardwareSpec;
import dev.sparseprof.kernel.DenseTiling;
import dev.sparseprof.perfmodel.gpu.GemmPlan;
import dev.sparseprof.perfmodel.gpu.GpuGemm;
import dev.sparseprof.util.DType;
import java.util.ArrayList;
import java.util.List;

/**
 * The tiled GEMM behind dense and 2:4 kernels. On a GPU's tensor cores it is the library's kernel
 * as {@link GpuGemm} plans it (tile menu, waves, split-K, the tile schedule's L2 and DRAM bytes, the
 * runtime's other kernels and host time), turned into a {@link KernelPlan} whose roofs reproduce
 * that plan: the tensor cores' efficiency is the plan's math over the busiest SM's time, the
 * streams carry the schedule's L2 requests and DRAM bytes ({@link #ownsTraffic}: no other memory
 * model replaces them), the overheads its launches, other kernels and any host time beyond the
 * device's (CUDA-core SGEMM the same, at the vector peak). On a CPU, {@link #cpuPlan}: the kernel's
 * own blocking, B re-read from the caches by every register tile.
 */
final class TiledGemm {
    private TiledGemm() {}

    /** True for the plans whose traffic is the GPU tile schedule's, whatever {@code --traffic} says. */
    static boolean ownsTraffic(KernelPlan plan, HardwareSpec spec) {
        return spec instanceof GpuSpec && (plan.format().equals("dense") || plan.format().equals("2:4") || plan.format().equals("1:2"));
    }

    static KernelPlan plan(String format, String kernel, Workload w, HardwareSpec spec, ComputeUnit unit, DType computeDType,
                           double executedFlops, double aValueBytes, double aMetadataBytes) {
        if (spec instanceof GpuSpec g) {
            return gpuPlan(format, kernel, w, g, unit, computeDType, executedFlops, aValueBytes, aMetadataBytes);
        }
        return cpuPlan(format, kernel, w, (CpuSpec) spec, unit, computeDType, executedFlops, aValueBytes, aMetadataBytes);
    }

    /**
     * The CPU plan: what {@code kernel.DenseGemm} moves with its blocking on this spec
     * ({@link DenseTiling#choose} of the SIMD width and the core's L1d and L2, as the kernel
     * chooses it). Per K block of {@code kc} the packed {@code kc x nc} block of B is read again by
     * every register tile of rows: the whole panels by each {@code MR}-row tile, a two-vector panel
     * by each 6-row tile, a one-vector panel by each 8-row tile, rows past the last whole tile once
     * each; between two reads of it the tile walks the block's panels, so that block is B's working
     * set. A is read once (its {@code MR x kc} sliver stays in L1 across the panels); C is stored
     * per K block and loaded again for every K block after the first, after all rows' tiles, or,
     * where the kernel packs every K block of B first ({@link DenseTiling#packsWholeK}), after one
     * chunk of {@link DenseTiling#CHUNK_ROWS} rows: its C, its A slivers and a packed B block. Each
     * thread owns its rows (8-row panels for the balance) and packs the B it needs.
     */
    private static KernelPlan cpuPlan(String format, String kernel, Workload w, CpuSpec cpu, ComputeUnit unit, DType computeDType,
                                      double executedFlops, double aValueBytes, double aMetadataBytes) {
        long m = w.rows();
        long k = w.cols();
        long n = w.denseColumns();
        double e = w.dtype().sizeBytes();
        List<CacheLevel> caches = cpu.caches();
        long l1 = caches.get(0).sizeBytes();
        long l2 = caches.size() > 1 ? caches.get(1).sizeBytes() : l1;
        DenseTiling t = DenseTiling.choose(cpu.simdBits(), l1, l2);
        int lanes = t.lanes();
        long kBlocks = (k + t.kc() - 1) / t.kc();
        long kc = Math.min(k, t.kc());
        double bRequests = 0;
        double bWorkingSet = 0;
        for (long j0 = 0; j0 < n; j0 += t.nc()) {
            long nc = Math.min(t.nc(), n - j0);
            long wide = nc / t.panelColumns() * t.panelColumns();
            bRequests += readsPerRowTile(m, t.rows()) * k * wide * e;
            bWorkingSet = Math.max(bWorkingSet, kc * wide * e);
            for (long left = nc - wide; left > 0; ) {
                long width = left > lanes ? 2L * lanes : lanes;
                int rows = width == lanes ? DenseTiling.NARROW_ROWS : DenseTiling.TWO_VECTOR_ROWS;
                bRequests += readsPerRowTile(m, rows) * k * width * e;
                bWorkingSet = Math.max(bWorkingSet, kc * width * e);
                left -= Math.min(width, left);
            }
        }
        double bBytes = (double) k * n * e;
        double cBytes = (double) m * n * e;
        List<DataStream> streams = new ArrayList<>(4);
        long panels = (m + 7) / 8;
        Balance balance = LoadBalance.tileWaves(panels, cpu.parallelUnits());
        streams.add(DataStream.streamed("A", aValueBytes, false));
        if (aMetadataBytes > 0) streams.add(DataStream.streamed("metadata", aMetadataBytes, true));
        // the block is swept whole by every row tile, in the same order: LRU keeps it only where it fits
        double block = Math.min(bWorkingSet, bBytes);
        streams.add(new DataStream("B", Math.max(bRequests, bBytes), bBytes, block, true, false, false, false, block, 1, false));
        // C is read back once per K block after the first: over all rows between two reads of a tile, or, where all of
        // B's K blocks are packed first (DenseTiling.packsWholeK), over one chunk of rows: its C, its A slivers and a B block
        long nc0 = Math.min(n, t.nc());
        double cReuse = t.packsWholeK(k, nc0, l2)
                ? Math.min(cBytes, DenseTiling.CHUNK_ROWS * (double) (nc0 + kc) * e + (double) kc * t.paddedColumns(nc0) * e)
                : cBytes;
        streams.add(new DataStream("C", cBytes * (2 * kBlocks - 1), cBytes, cReuse, false, false, false));
        return new KernelPlan(format, kernel, unit, computeDType, executedFlops, streams, balance, Machine.launchSeconds(cpu),
                cpu.overheads().denseEfficiency(), 0);
    }

    /** How often a row tile of {@code rows} rows walks B over {@code m} rows: once per whole tile, once per row past them. */
    private static long readsPerRowTile(long m, int rows) {
        return m / rows + m % rows;
    }

    /** The GEMM plan of {@link GpuGemm} (exposed for the GPU SpMM models and the replay checks). */
    static GemmPlan gemm(Workload w, GpuSpec g, ComputeUnit unit, DType computeDType, double aValueBytes, double aMetadataBytes) {
        double elements = (double) w.rows() * w.cols();
        return GpuGemm.plan(g, w.rows(), w.denseColumns(), w.cols(), computeDType, unit,
                (aValueBytes + aMetadataBytes) / elements, aMetadataBytes / elements);
    }

    private static KernelPlan gpuPlan(String format, String kernel, Workload w, GpuSpec g, ComputeUnit unit, DType computeDType,
                                      double executedFlops, double aValueBytes, double aMetadataBytes) {
        GemmPlan p = gemm(w, g, unit, computeDType, aValueBytes, aMetadataBytes);
        Balance tiles = new Balance(p.schedule(), p.waveFactor(), p.smWaves(), p.smWaves() / p.waveFactor());
        double imbalance = g.overheads().penalizedImbalance(tiles.factor());
        double peak = g.peaks().flopsPerSecond(unit, computeDType);
        double efficiency = Math.max(1e-9, Math.min(1, executedFlops * imbalance / (peak * p.smSeconds())));
        double valueA = p.dramBytesA() - p.dramBytesMeta();
        long tilesN = (p.paddedColumns() + p.tile().cols() - 1) / p.tile().cols();
        long tilesM = (w.rows() + p.tile().rows() - 1) / p.tile().rows();
        double aRequests = tilesN * (aValueBytes + aMetadataBytes);
        double aShare = aValueBytes / (aValueBytes + aMetadataBytes);
        double bBytes = (double) w.cols() * p.paddedColumns() * computeDType.sizeBytes();
        double cRequests = p.l2Bytes() - aRequests - tilesM * bBytes;
        List<DataStream> streams = new ArrayList<>(4);
        streams.add(schedule("A", aRequests * aShare, valueA, false));
        if (aMetadataBytes > 0) streams.add(schedule("metadata", aRequests * (1 - aShare), p.dramBytesMeta(), true));
        streams.add(schedule("B", tilesM * bBytes, p.dramBytesB(), false));
        streams.add(schedule("C", Math.max(cRequests, p.dramBytesC()), p.dramBytesC(), false));
        double device = p.kernelSeconds() + p.extraSeconds();
        double overhead = p.extraSeconds() + Math.max(0, p.hostSeconds() - device);
        return new KernelPlan(format, kernel + ", " + g.runtime().name(), unit, computeDType, executedFlops, streams, tiles, overhead,
                efficiency, 0);
    }

    /**
     * An operand as the tile schedule moves it: {@code requestBytes} between the L2 and shared
     * memory (past the L1), {@code dramBytes} from DRAM (re-reads of the schedule included), no
     * working set for the capacity model to miss on.
     */
    private static DataStream schedule(String role, double requestBytes, double dramBytes, boolean index) {
        return new DataStream(role, Math.max(requestBytes, dramBytes), dramBytes, 0, true, index, true);
    }
}

package dev.sparseprof.perfmodel;

import dev.sparseprof.hw.CacheLevel;
import dev.sparseprof.hw.ComputeUnit;
import dev.sparseprof.hw.CpuSpec;
import dev.sparseprof.hw.GpuSpec;
import dev.sparseprof.hw.HardwareSpec;
import dev.sparseprof.hw.KernelOverheads;
import dev.sparseprof.perfmodel.cpu.EcmModel;
import dev.sparseprof.sparse.stats.Lengths;
import dev.sparseprof.util.DType;
import java.util.List;

/**
 * How kernels map onto a machine, shared by the format models: the granule of a gather (a GPU's
 * 32 B sector, a CPU's line), the column tile one warp or one SIMD loop covers, the dtype
 * CUDA-core and SIMD kernels compute in (fp32, fp64 for fp64: narrower types are widened), and the
 * sparse kernels' fixed overheads.
 */
final class Machine {
    private Machine() {}

    static int granuleBytes(HardwareSpec spec) {
        return spec.cacheLevels().get(0).sectorBytes();
    }

    /** Columns of B one warp (32 lanes x 16 B loads) or one CPU inner loop (4 SIMD registers) covers. */
    static int columnTile(HardwareSpec spec, DType dtype) {
        if (spec instanceof GpuSpec g) return g.warpSize() * Math.max(1, 16 / dtype.sizeBytes());
        CpuSpec c = (CpuSpec) spec;
        return 4 * (c.simdBits() / 32);
    }

    static int columnTiles(HardwareSpec spec, Workload w) {
        long tile = columnTile(spec, w.dtype());
        return (int) Math.min(Integer.MAX_VALUE, (w.denseColumns() + tile - 1) / tile);
    }

    /** Bytes one gather of a B row slice moves: every column tile rounded up to whole granules. */
    static double gatherBytesPerIndex(HardwareSpec spec, Workload w) {
        long n = w.denseColumns();
        long tile = columnTile(spec, w.dtype());
        int g = granuleBytes(spec);
        long full = n / tile;
        long rest = n % tile;
        return full * roundUp(tile * w.dtype().sizeBytes(), g) + (rest > 0 ? roundUp(rest * w.dtype().sizeBytes(), g) : 0);
    }

    /**
     * Why fp64 is not priced on a GPU: its spec's fp64 vector peak is the CUDA cores' (the Triton FMA
     * dot's float64 accumulate uses it), but cuBLAS runs an fp64 GEMM on the FP64 tensor cores (DMMA),
     * which no spec describes, so there is no dense baseline to set sparse kernels against.
     */
    static final String GPU_FP64 = "fp64 on a GPU is not modelled (cuBLAS's fp64 GEMM runs on the FP64 tensor cores, DMMA, which the spec has no peak for)";

    static DType vectorDType(DType storage) {
        return storage == DType.F64 ? DType.F64 : DType.F32;
    }

    /** Null when the CUDA cores / SIMD units have a peak for the dtype sparse kernels compute in, else why not. */
    static String vectorUnsupported(Workload w, HardwareSpec spec) {
        DType compute = vectorDType(w.dtype());
        if (spec.isGpu() && compute == DType.F64) return GPU_FP64;
        return spec.peaks().has(ComputeUnit.VECTOR, compute) ? null : "no vector peak for " + compute.label();
    }

    static ComputeUnit denseUnit(HardwareSpec spec, DType dtype) {
        return spec.peaks().has(ComputeUnit.TENSOR, dtype) ? ComputeUnit.TENSOR : ComputeUnit.VECTOR;
    }

    /** One call's fixed cost: a GPU's kernel launch; a CPU's fork/join over all its cores. */
    static double launchSeconds(HardwareSpec spec) {
        KernelOverheads o = spec.overheads();
        return spec instanceof CpuSpec c ? o.launchSeconds(c.cores()) : o.launchSeconds();
    }

    /**
     * The CPU sparse kernels' copies of B to 64-byte aligned places before each call
     * ({@code kernel.SpmmPlan}: fp32, K x N, each thread its own whole copy, read and written
     * once), a phase of its own before the kernel: all cores' bytes over the bandwidth of the first
     * level that holds every copy with its source (private levels: all cores' instances), else
     * DRAM's. 0 on a GPU (the operands are already on the device). It weighs most at low density
     * and large N (refitted with it, the held-out MAPE on the build VM went from 7.4 % to 7.1 %,
     * docs/calibration.md).
     */
    static double bCopySeconds(HardwareSpec spec, Workload w, String format) {
        return spec instanceof CpuSpec cpu ? EcmModel.bCopySeconds(cpu, w, format) : 0;
    }

    /**
     * Launch and B's copy, plus per-row, per-index and per-gathered-slice cycles spread over every
     * core/SM: {@link #decodedOverheadSeconds} with the format's own index cycles and no CSR body.
     */
    static double sparseOverheadSeconds(HardwareSpec spec, Workload w, String format, double rowTasks, double indexDecodes,
                                        double sliceGathers) {
        return decodedOverheadSeconds(spec, w, format, rowTasks, indexDecodes, 0, sliceGathers);
    }

    /**
     * The overheads of a kernel that first decodes its format's indices into plain column indices,
     * once per row ({@code decodes}, at the format's own cycles, whatever N), then runs the CSR body
     * over them ({@code bodyIndices}: once per index and column tile, at CSR's cycles). The CPU
     * N:M kernel does this: its time less CSR's on the same pattern stayed the same from N = 32 to
     * N = 128 on the build VM, so a decode cost per index and tile over- and under-shot by ~16 %.
     */
    static double decodedOverheadSeconds(HardwareSpec spec, Workload w, String format, double rowTasks, double decodes,
                                         double bodyIndices, double sliceGathers) {
        KernelOverheads o = spec.overheads();
        return launchSeconds(spec) + bCopySeconds(spec, w, format) + (rowTasks * o.perRowCycles() + decodes * o.perNnzCycles(format)
                + bodyIndices * o.perNnzCycles(CSR_BODY) + sliceGathers * o.gatherCycles()) / (spec.parallelUnits() * spec.clockHertz());
    }

    /** The format whose index cycles the CSR body costs. */
    static final String CSR_BODY = "csr";

    /** A sparse kernel's balance: warp per row on a GPU, nnz-balanced contiguous rows on a CPU. */
    static Balance sparseBalance(HardwareSpec spec, Lengths rows, int columnTiles) {
        return spec instanceof GpuSpec g ? LoadBalance.gpuRowSplit(rows, columnTiles, g.sms())
                : LoadBalance.nnzBalanced(rows, columnTiles, spec.parallelUnits());
    }

    /**
     * B's row slices gathered {@code gathers} times (one per stored index, times rows per index);
     * {@code oneRowEach}: each gather one B row (csr, coo, N:M), not a block's run of consecutive rows;
     * on a CPU those rows are swept in ascending column order, row after row ({@link DataStream#rowSwept}).
     */
    static DataStream bGather(HardwareSpec spec, Workload w, double gathers, boolean oneRowEach) {
        double perIndex = gatherBytesPerIndex(spec, w);
        double footprint = (double) w.cols() * w.denseColumns() * w.dtype().sizeBytes();
        if (!oneRowEach || spec.isGpu() || w.rows() == 0 || w.cols() == 0) return DataStream.gathered("B", gathers * perIndex, footprint, oneRowEach);
        // a CPU core walks its rows one after another, each in ascending column order: LRU's reuse of B
        double meanRow = gathers / w.rows();
        return DataStream.rowSwept("B", gathers * perIndex, footprint, meanRow * perIndex, Math.min(1, meanRow / w.cols()));
    }

    /** C written once. */
    static DataStream cWrite(Workload w) {
        return DataStream.written("C", (double) w.rows() * w.denseColumns() * w.dtype().sizeBytes());
    }

    /** An array of A re-read once per column tile (later tiles can hit in the caches). */
    static DataStream aArray(String role, double bytes, int columnTiles, boolean index) {
        return new DataStream(role, bytes * columnTiles, bytes, bytes, false, index, false);
    }

    /**
     * A CUDA-core sparse kernel's plan: its FMAs at the vector peak over the share of lanes doing
     * useful work, and its chains of dependent loads ({@code latencySeconds}) as the plan's chain
     * roof (the latency a tiled GEMM's pipeline fill puts in its roof, {@link TiledGemm}, is here
     * the chains').
     */
    static KernelPlan gpuSparsePlan(String format, String kernel, Workload w, GpuSpec g, double flops, List<DataStream> streams,
                                    double laneUtilisation, double latencySeconds, Balance balance, double overheadSeconds,
                                    double sliceGathers) {
        return new KernelPlan(format, kernel, ComputeUnit.VECTOR, vectorDType(w.dtype()), flops, streams, balance, overheadSeconds,
                laneUtilisation, sliceGathers, latencySeconds);
    }

    static double roundUp(double bytes, int granule) {
        return Math.ceil(bytes / granule) * granule;
    }
}

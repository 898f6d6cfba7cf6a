package dev.sparseprof.perfmodel;

import dev.sparseprof.hw.ComputeUnit;
import dev.sparseprof.hw.GpuSpec;
import dev.sparseprof.hw.HardwareSpec;
import dev.sparseprof.perfmodel.gpu.RowSplitSpmm;
import dev.sparseprof.sparse.StorageCost;
import java.util.List;

/**
 * COO SpMM: value, row index and column index per non-zero. The work splits evenly by non-zeros
 * (balanced by construction). GPU: every non-zero adds its product into C with atomics resolved in
 * the L2, so C traffic is per non-zero, not per row, and each warp's chunks of entries are a chain
 * of dependent loads ({@link RowSplitSpmm#chunkSeconds}); CPU: row-sorted entries accumulate in
 * registers, so C is written once, but both indices are read and decoded per non-zero.
 */
final class CooFormat implements FormatModel {
    @Override
    public String name() {
        return "coo";
    }

    @Override
    public String unsupported(Workload w, HardwareSpec spec) {
        return Machine.vectorUnsupported(w, spec);
    }

    @Override
    public KernelPlan plan(Workload w, HardwareSpec spec) {
        int tiles = Machine.columnTiles(spec, w);
        double nnz = w.nnz();
        double cBytes = (double) w.rows() * w.denseColumns() * w.dtype().sizeBytes();
        StorageCost cost = w.storage(name());
        DataStream c = spec.isGpu()
                ? new DataStream("C", nnz * Machine.gatherBytesPerIndex(spec, w), cBytes, cBytes, false, false, true)
                : Machine.cWrite(w);
        List<DataStream> streams = List.of(
                Machine.aArray("values", cost.valueBytes(), tiles, false),
                Machine.aArray("indices", cost.indexBytes(), tiles, true),
                Machine.bGather(spec, w, nnz, true),
                c);
        double perUnit = nnz * tiles / spec.parallelUnits();
        Balance balance = Balance.of("nnz-split", Math.ceil(perUnit), perUnit);
        double overhead = Machine.sparseOverheadSeconds(spec, w, name(), 0, 2 * nnz * tiles, nnz * tiles);
        if (spec instanceof GpuSpec g) {
            // Each warp takes chunks of a warp's worth of entries: load them, gather their B rows, add into C.
            double chunks = Math.ceil(nnz * tiles / g.warpSize());
            double link = RowSplitSpmm.chunkSeconds(g);
            double latency = chunks > 0 ? Math.max(link, chunks * link / ((double) g.residentWarpsPerSm() * g.sms())) : 0;
            return Machine.gpuSparsePlan(name(), "COO, atomics into C, CUDA cores", w, g, w.sparseFlops(), streams, 1, latency, balance,
                    overhead, nnz * tiles);
        }
        return KernelPlan.sparse(name(), "COO, SIMD", ComputeUnit.VECTOR, Machine.vectorDType(w.dtype()), w.sparseFlops(), streams, balance,
                overhead, nnz * tiles);
    }
}

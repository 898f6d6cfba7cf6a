package dev.sparseprof.perfmodel;

import dev.sparseprof.hw.ComputeUnit;
import dev.sparseprof.hw.HardwareSpec;
import dev.sparseprof.sparse.StorageCost;
import dev.sparseprof.sparse.stats.Lengths;
import java.util.Arrays;
import java.util.List;

/**
 * 2:4 structured sparsity: A keeps 2 slots of every 4 along K plus 4 bits of metadata per group
 * (PTX ISA 9.7.14.6.1; bytes as {@code sparse} accounts them). On a GPU with a sparse tensor peak
 * it is a tiled GEMM at that peak (at most 2x the dense math: the peak counts dense-equivalent
 * FLOPs) reading the compressed A and the same B and C as dense. On a CPU it is a SIMD kernel over
 * the kept slots with index decode, every row the same length.
 */
final class TwoFourFormat implements FormatModel {
    @Override
    public String name() {
        return "2:4";
    }

    @Override
    public String unsupported(Workload w, HardwareSpec spec) {
        if (!w.twoFourCompliant()) return "not 2:4 sparse (prune with N:M 2:4 first)";
        if (spec.isGpu() && !spec.peaks().has(ComputeUnit.SPARSE_TENSOR, w.dtype())) {
            return "no sparseTensor peak for " + w.dtype().label();
        }
        return spec.isGpu() ? null : Machine.vectorUnsupported(w, spec);
    }

    @Override
    public KernelPlan plan(Workload w, HardwareSpec spec) {
        StorageCost cost = w.storage(name());
        double values = cost.valueBytes() + cost.paddingBytes();
        if (spec.isGpu()) {
            return TiledGemm.plan(name(), "2:4 GEMM, sparse tensor cores", w, spec, ComputeUnit.SPARSE_TENSOR, w.dtype(),
                    w.denseFlops(), values, cost.metadataBytes());
        }
        long slots = (long) w.rows() * (w.cols() / 2);
        int[] perRow = new int[w.rows()];
        Arrays.fill(perRow, w.cols() / 2);
        int tiles = Machine.columnTiles(spec, w);
        List<DataStream> streams = List.of(
                Machine.aArray("values", values, tiles, false),
                Machine.aArray("metadata", cost.metadataBytes(), tiles, true),
                Machine.bGather(spec, w, slots),
                Machine.cWrite(w));
        return KernelPlan.sparse(name(), "2:4 SIMD kernel", ComputeUnit.VECTOR, Machine.vectorDType(w.dtype()), 2.0 * slots * w.denseColumns(),
                streams, Machine.sparseBalance(spec, Lengths.of(perRow), tiles),
                Machine.sparseOverheadSeconds(spec, (double) w.rows() * tiles, (double) slots * tiles, (double) slots * tiles),
                (double) slots * tiles);
    }
}

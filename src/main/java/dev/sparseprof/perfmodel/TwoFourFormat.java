package dev.sparseprof.perfmodel;

import dev.sparseprof.hw.ComputeUnit;
import dev.sparseprof.hw.HardwareSpec;
import java.util.List;

/**
 * 2:4 structured sparsity: A keeps 2 values of every 4 along K plus 4 bits of metadata per group
 * (PTX ISA 9.7.14.6.1). On a GPU with a sparse tensor peak it is a tiled GEMM at that peak (at most
 * 2x the dense math: the peak counts dense-equivalent FLOPs) reading the compressed A and the same
 * B and C as dense. On a CPU it is a SIMD kernel over the kept values with 2-bit index decode,
 * every row the same length.
 */
final class TwoFourFormat implements FormatModel {
    @Override
    public String name() {
        return "2:4";
    }

    private static double valueBytes(Workload w) {
        return (double) w.rows() * (w.cols() / 2) * w.dtype().sizeBytes();
    }

    private static double metadataBytes(Workload w) {
        return (double) w.rows() * (w.cols() / 4) * 0.5;
    }

    @Override
    public double storedBytes(Workload w) {
        return valueBytes(w) + metadataBytes(w);
    }

    @Override
    public String unsupported(Workload w, HardwareSpec spec) {
        if (!w.twoFourCompliant()) return "not 2:4 sparse (prune with N:M 2:4 first)";
        if (spec.isGpu() && !spec.peaks().has(ComputeUnit.SPARSE_TENSOR, w.dtype())) {
            return "no sparseTensor peak for " + w.dtype().label();
        }
        return null;
    }

    @Override
    public KernelPlan plan(Workload w, HardwareSpec spec) {
        if (spec.isGpu()) {
            return TiledGemm.plan("2:4 GEMM, sparse tensor cores", w, spec, ComputeUnit.SPARSE_TENSOR, w.dtype(),
                    w.denseFlops(), valueBytes(w), metadataBytes(w));
        }
        long kept = (long) w.rows() * (w.cols() / 2);
        RowLengths rows = RowLengths.uniform(w.rows(), w.cols() / 2);
        int tiles = Machine.columnTiles(spec, w);
        List<DataStream> streams = List.of(
                Machine.aArray("values", valueBytes(w), tiles, false),
                Machine.aArray("metadata", metadataBytes(w), tiles, true),
                Machine.bGather(spec, w, kept),
                Machine.cWrite(w));
        return new KernelPlan("2:4 SIMD kernel", ComputeUnit.VECTOR, Machine.vectorDType(w.dtype()), 2.0 * kept * w.denseColumns(),
                streams, Machine.sparseBalance(spec, rows, tiles),
                Machine.sparseOverheadSeconds(spec, (double) w.rows() * tiles, (double) kept * tiles));
    }
}

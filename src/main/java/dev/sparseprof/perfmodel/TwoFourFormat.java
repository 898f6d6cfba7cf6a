package dev.sparseprof.perfmodel;

import dev.sparseprof.hw.ComputeUnit;
import dev.sparseprof.hw.HardwareSpec;
import dev.sparseprof.sparse.Formats;
import dev.sparseprof.sparse.StorageCost;
import dev.sparseprof.sparse.stats.NmPattern;
import dev.sparseprof.sparse.stats.Lengths;
import java.util.Arrays;
import java.util.List;

/**
 * N:M structured sparsity as Ampere's sparse tensor cores run it: 2:4 for 16- and 8-bit types, 1:2
 * for tf32 ({@code sparse.Formats.ampereFor}; hardware-facts.md section 2). A keeps N slots of every
 * M along K plus its metadata (PTX ISA 9.7.14.6.1; bytes as {@code sparse} accounts them). On a GPU with a sparse tensor peak
 * it is a tiled GEMM at that peak (at most 2x the dense math: the peak counts dense-equivalent
 * FLOPs) reading the compressed A and the same B and C as dense. On a CPU it is a SIMD kernel over
 * the kept slots, every row the same length: each row's columns are decoded once from the metadata,
 * then the CSR body runs over them ({@link Machine#decodedOverheadSeconds}).
 */
final class TwoFourFormat implements FormatModel {
    private final NmPattern pattern;

    TwoFourFormat(NmPattern pattern) {
        this.pattern = pattern;
    }

    @Override
    public String name() {
        return pattern.label();
    }

    /** The N:M pattern (the pruning {@code compare} judges this format under). */
    NmPattern pattern() {
        return pattern;
    }

    @Override
    public String unsupported(Workload w, HardwareSpec spec) {
        if (!w.compliant(pattern)) return "not " + name() + " sparse (prune with N:M " + name() + " first)";
        if (spec.isGpu() && !spec.peaks().has(ComputeUnit.SPARSE_TENSOR, w.dtype())) {
            return "no sparseTensor peak for " + w.dtype().label();
        }
        String ampere = Formats.ampereFor(w.dtype()).name();
        if (spec.isGpu() && !ampere.equals(name())) {
            return "the sparse tensor cores run " + ampere + " for " + w.dtype().label() + ", not " + name();
        }
        return spec.isGpu() ? null : Machine.vectorUnsupported(w, spec);
    }

    @Override
    public KernelPlan plan(Workload w, HardwareSpec spec) {
        StorageCost cost = w.storage(name());
        double values = cost.valueBytes() + cost.paddingBytes();
        if (spec.isGpu()) {
            return TiledGemm.plan(name(), name() + " GEMM, sparse tensor cores", w, spec, ComputeUnit.SPARSE_TENSOR, w.dtype(),
                    w.denseFlops(), values, cost.metadataBytes());
        }
        int kept = w.cols() / pattern.m() * pattern.n();
        long slots = (long) w.rows() * kept;
        int[] perRow = new int[w.rows()];
        Arrays.fill(perRow, kept);
        int tiles = Machine.columnTiles(spec, w);
        List<DataStream> streams = List.of(
                Machine.aArray("values", values, tiles, false),
                Machine.aArray("metadata", cost.metadataBytes(), tiles, true),
                Machine.bGather(spec, w, slots, true),
                Machine.cWrite(w));
        return KernelPlan.sparse(name(), name() + " SIMD kernel", ComputeUnit.VECTOR, Machine.vectorDType(w.dtype()), 2.0 * slots * w.denseColumns(),
                streams, Machine.sparseBalance(spec, Lengths.of(perRow), tiles),
                Machine.decodedOverheadSeconds(spec, w, name(), (double) w.rows() * tiles, slots, (double) slots * tiles, (double) slots * tiles),
                (double) slots * tiles);
    }
}

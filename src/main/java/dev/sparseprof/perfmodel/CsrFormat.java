package dev.sparseprof.perfmodel;

import dev.sparseprof.hw.ComputeUnit;
import dev.sparseprof.hw.HardwareSpec;
import dev.sparseprof.sparse.StorageCost;
import java.util.List;

/**
 * CSR SpMM: values and column indices per non-zero, M+1 row pointers (index widths as
 * {@code sparse} stores them). GPU: one warp per row and column tile on CUDA cores (Sputnik-style
 * row split), each index gathering a B row slice in 32 B sectors; CPU: threads over nnz-balanced
 * row ranges, SIMD over B's columns.
 */
final class CsrFormat implements FormatModel {
    @Override
    public String name() {
        return "csr";
    }

    @Override
    public String unsupported(Workload w, HardwareSpec spec) {
        return Machine.vectorUnsupported(w, spec);
    }

    @Override
    public KernelPlan plan(Workload w, HardwareSpec spec) {
        int tiles = Machine.columnTiles(spec, w);
        double nnz = w.nnz();
        StorageCost cost = w.storage(name());
        List<DataStream> streams = List.of(
                Machine.aArray("values", cost.valueBytes(), tiles, false),
                Machine.aArray("colidx", cost.indexBytes(), tiles, true),
                Machine.aArray("rowptr", cost.metadataBytes(), tiles, true),
                Machine.bGather(spec, w, nnz),
                Machine.cWrite(w));
        return KernelPlan.sparse(name(), spec.isGpu() ? "CSR row-split, CUDA cores" : "CSR rows, SIMD", ComputeUnit.VECTOR,
                Machine.vectorDType(w.dtype()), w.sparseFlops(), streams, Machine.sparseBalance(spec, w.rowLengths(), tiles),
                Machine.sparseOverheadSeconds(spec, w, name(), (double) w.rows() * tiles, nnz * tiles, nnz * tiles), nnz * tiles);
    }
}

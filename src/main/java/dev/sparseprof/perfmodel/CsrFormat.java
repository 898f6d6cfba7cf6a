package dev.sparseprof.perfmodel;

import dev.sparseprof.hw.ComputeUnit;
import dev.sparseprof.hw.HardwareSpec;
import java.util.List;

/**
 * CSR SpMM: values and 32-bit column indices per non-zero, M+1 row pointers. GPU: one warp per row
 * and column tile on CUDA cores (Sputnik-style row split), each index gathering a B row slice in
 * 32 B sectors; CPU: threads over nnz-balanced row ranges, SIMD over B's columns.
 */
final class CsrFormat implements FormatModel {
    static final double INDEX_BYTES = 4;

    @Override
    public String name() {
        return "csr";
    }

    @Override
    public double storedBytes(Workload w) {
        return w.nnz() * (w.dtype().sizeBytes() + INDEX_BYTES) + (w.rows() + 1.0) * INDEX_BYTES;
    }

    @Override
    public String unsupported(Workload w, HardwareSpec spec) {
        return spec.peaks().has(ComputeUnit.VECTOR, Machine.vectorDType(w.dtype())) ? null
                : "no vector peak for " + Machine.vectorDType(w.dtype()).label();
    }

    @Override
    public KernelPlan plan(Workload w, HardwareSpec spec) {
        int tiles = Machine.columnTiles(spec, w);
        double nnz = w.nnz();
        List<DataStream> streams = List.of(
                Machine.aArray("values", nnz * w.dtype().sizeBytes(), tiles, false),
                Machine.aArray("colidx", nnz * INDEX_BYTES, tiles, true),
                Machine.aArray("rowptr", (w.rows() + 1.0) * INDEX_BYTES, tiles, true),
                Machine.bGather(spec, w, nnz),
                Machine.cWrite(w));
        return new KernelPlan(spec.isGpu() ? "CSR row-split, CUDA cores" : "CSR rows, SIMD", ComputeUnit.VECTOR,
                Machine.vectorDType(w.dtype()), w.sparseFlops(), streams, Machine.sparseBalance(spec, w.rowLengths(), tiles),
                Machine.sparseOverheadSeconds(spec, (double) w.rows() * tiles, nnz * tiles));
    }
}

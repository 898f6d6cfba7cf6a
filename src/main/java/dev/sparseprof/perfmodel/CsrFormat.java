package dev.sparseprof.perfmodel;

import dev.sparseprof.hw.ComputeUnit;
import dev.sparseprof.hw.GpuSpec;
import dev.sparseprof.hw.HardwareSpec;
import dev.sparseprof.perfmodel.gpu.RowSplitSpmm;
import dev.sparseprof.sparse.StorageCost;
import java.util.ArrayList;
import java.util.List;

/**
 * CSR SpMM: values and column indices per non-zero, M+1 row pointers (index widths as
 * {@code sparse} stores them). GPU: CUDA cores, mapped as {@link RowSplitSpmm} says: {@code csr}
 * as Sputnik runs it, {@code csr-rowsplit} as a cuSPARSE-like row split (both store plain CSR);
 * B row segments gathered in 32 B sectors, the lanes' share of useful work, the dependent-load
 * chains and the schedule from the real row lengths. CPU: threads over nnz-balanced row ranges,
 * SIMD over B's columns ({@code csr} only).
 */
final class CsrFormat implements FormatModel {
    private final String name;
    private final RowSplitSpmm.Variant variant;

    CsrFormat(String name, RowSplitSpmm.Variant variant) {
        this.name = name;
        this.variant = variant;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public double storedBytes(Workload w) {
        return w.storage("csr").totalBytes();
    }

    @Override
    public String unsupported(Workload w, HardwareSpec spec) {
        if (!spec.isGpu() && variant != RowSplitSpmm.Variant.SPUTNIK) return "a GPU kernel (the CPU runs csr)";
        return Machine.vectorUnsupported(w, spec);
    }

    @Override
    public KernelPlan plan(Workload w, HardwareSpec spec) {
        double nnz = w.nnz();
        StorageCost cost = w.storage("csr");
        if (spec instanceof GpuSpec g) return gpuPlan(w, g, cost);
        int tiles = Machine.columnTiles(spec, w);
        List<DataStream> streams = List.of(
                Machine.aArray("values", cost.valueBytes(), tiles, false),
                Machine.aArray("colidx", cost.indexBytes(), tiles, true),
                Machine.aArray("rowptr", cost.metadataBytes(), tiles, true),
                Machine.bGather(spec, w, nnz, true),
                Machine.cWrite(w));
        return KernelPlan.sparse(name, "CSR rows, SIMD", ComputeUnit.VECTOR,
                Machine.vectorDType(w.dtype()), w.sparseFlops(), streams, Machine.sparseBalance(spec, w.rowLengths(), tiles),
                Machine.sparseOverheadSeconds(spec, w, "csr", (double) w.rows() * tiles, nnz * tiles, nnz * tiles), nnz * tiles);
    }

    private KernelPlan gpuPlan(Workload w, GpuSpec g, StorageCost cost) {
        double nnz = w.nnz();
        RowSplitSpmm.Mapping map = RowSplitSpmm.map(variant, g, w.rowLengths(), w.denseColumns(), w.dtype().sizeBytes());
        int tiles = (int) Math.min(Integer.MAX_VALUE, map.columnTiles());
        List<DataStream> streams = new ArrayList<>(List.of(
                Machine.aArray("values", cost.valueBytes(), tiles, false),
                Machine.aArray("colidx", cost.indexBytes(), tiles, true),
                Machine.aArray("rowptr", cost.metadataBytes(), tiles, true),
                DataStream.gathered("B", nnz * tiles * map.l1BytesPerGather(), (double) w.cols() * w.denseColumns() * w.dtype().sizeBytes(), true),
                Machine.cWrite(w)));
        if (map.l1BroadcastBytesPerNonZero() > 0) {
            // The warp-wide loads of each non-zero's value and index: L1 hits on lines the arrays above bring in.
            streams.add(new DataStream("A broadcasts", nnz * tiles * map.l1BroadcastBytesPerNonZero(), 0, 0, false, false, false));
        }
        return Machine.gpuSparsePlan(name, variant.description() + ", CUDA cores", w, g, w.sparseFlops(), streams, map.laneUtilisation(),
                map.latencySeconds(), map.balance(),
                Machine.sparseOverheadSeconds(g, w, "csr", (double) w.rows() * tiles, nnz * tiles, nnz * tiles), nnz * tiles);
    }
}

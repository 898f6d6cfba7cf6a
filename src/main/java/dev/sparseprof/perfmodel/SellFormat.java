package dev.sparseprof.perfmodel;

import dev.sparseprof.hw.ComputeUnit;
import dev.sparseprof.hw.CpuSpec;
import dev.sparseprof.hw.HardwareSpec;
import dev.sparseprof.kernel.SellSpmm;
import dev.sparseprof.sparse.SellMatrix;
import dev.sparseprof.sparse.StorageCost;
import dev.sparseprof.sparse.stats.Lengths;
import java.util.List;

/**
 * SELL-C-sigma SpMM as the CPU kernel runs it ({@code kernel.SellSpmm}, C = the vector's lanes,
 * sigma = 256): B transposed into each thread's scratch, then per chunk of C rows and per column of
 * B, one pass over the chunk's slot vectors (a gather of B's transposed column and an FMA each,
 * padding slots included), the C sums stored through the row permutation. A chunk's slots stay in
 * L1 across the columns, so the A arrays stream in once and are re-read from L1 N times; each
 * transposed column of B (K floats) is gathered from L1. Threads take contiguous chunks, balanced
 * by slots. The plan's executed FLOPs are 2 per slot and column of B, padding included, from which
 * the ECM model takes the slots it counts ({@code perfmodel.cpu.EcmModel}). A CPU model only, and only on a spec whose probe measured SELL's body
 * ({@code hw.OneColumnRates#sellPresent}): without it no rate says what a chunk's gathers cost.
 */
final class SellFormat implements FormatModel {
    private static final int SIGMA = SellSpmm.SIGMA;
    private final int chunkHeight;
    private final String name;

    /** The layout the CPU kernel runs at {@code lanes} fp32 lanes per vector. */
    SellFormat(int lanes) {
        this.chunkHeight = lanes;
        this.name = "sell-" + lanes + "-" + SIGMA;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String unsupported(Workload w, HardwareSpec spec) {
        if (!(spec instanceof CpuSpec cpu)) return "a CPU kernel (no GPU SELL kernel is modelled)";
        int lanes = cpu.simdBits() / (8 * Float.BYTES);
        if (lanes != chunkHeight) return "the CPU kernel runs C = " + lanes + " lanes at " + cpu.simdBits() + " bits (sell-" + lanes + "-" + SIGMA + ")";
        if (!cpu.inCore().oneColumn().sellPresent()) return "this spec's probe did not measure SELL's body (calibrate --probe again)";
        return Machine.vectorUnsupported(w, spec);
    }

    @Override
    public KernelPlan plan(Workload w, HardwareSpec spec) {
        StorageCost cost = w.storage(name);
        long n = w.denseColumns();
        int[] widths = SellMatrix.chunkWidths(w.rowLengths().toArray(), chunkHeight, SIGMA);
        int[] chunkSlots = new int[widths.length];
        double slots = 0;
        for (int k = 0; k < widths.length; k++) {
            chunkSlots[k] = chunkHeight * widths[k];
            slots += chunkSlots[k];
        }
        double chunks = Math.max(1, widths.length);
        double indexWidth = w.nnz() > 0 ? (double) cost.indexBytes() / w.nnz() : Integer.BYTES;
        double values = slots * w.dtype().sizeBytes();
        double indices = slots * indexWidth;
        List<DataStream> streams = List.of(
                new DataStream("values", values * n, values, values / chunks, false, false, false),
                new DataStream("colidx", indices * n, indices, indices / chunks, false, true, false),
                DataStream.streamed("chunkptr+perm", cost.metadataBytes(), true),
                new DataStream("B^T", slots * n * Float.BYTES, (double) w.cols() * n * Float.BYTES, (double) w.cols() * Float.BYTES, true, false, false),
                Machine.cWrite(w));
        return KernelPlan.sparse(name, "SELL-" + chunkHeight + "-" + SIGMA + ", SIMD over a chunk's rows", ComputeUnit.VECTOR,
                Machine.vectorDType(w.dtype()), 2.0 * slots * n, streams, LoadBalance.nnzBalanced(Lengths.of(chunkSlots), 1, spec.parallelUnits()),
                Machine.launchSeconds(spec) + Machine.bCopySeconds(spec, w, name), slots * n);
    }
}

package dev.sparseprof.perfmodel;

import dev.sparseprof.hw.GpuSpec;
import dev.sparseprof.sparse.stats.MatrixScan;
import dev.sparseprof.util.MatrixView;
import java.util.List;

/**
 * The memsim check of a GPU layer's analytical traffic ({@link TrafficCheck}). Dense: the plan's own
 * tile schedule through the L2 ({@link GpuTileReplay}). CSR: the layer's rows
 * 0, s, 2s, ... at N capped to {@link #COLUMNS}, s chosen so the GPU-style trace of that sample
 * ({@link GpuSampledReplay#estimatedAccesses}) stays under the access budget, replayed on every SM
 * ({@link GpuSampledReplay}), against the analytical traffic of the format's own plan for the same
 * sample. Compared are the bytes arriving at the L2 and at DRAM: the modelled tensor-core kernel's
 * tile loads bypass the L1 ({@code cp.async.cg}) where the traced kernel's loads go through it, so
 * the L1 figures are not the same kernel's. Cost: one replay of at most the budget per check, and
 * a scan of the sampled rows.
 */
final class GpuReplayCheck {
    /** The most columns of B a check replays (the trace's cost grows with N; the L2 and DRAM bytes per column settle well before). */
    static final long COLUMNS = 64;

    private GpuReplayCheck() {}

    /** Null when the format has no GPU-style trace or the layer no matrix. */
    static TrafficCheck of(Workload w, String format, GpuSpec spec, long accessBudget) {
        if (!(format.equals("csr") || format.equals("dense")) || w.matrix() == null) return null;
        if (format.equals("dense")) return GpuTileReplay.check(w, spec, accessBudget);
        Workload narrow = w.withColumns(Math.min(w.denseColumns(), COLUMNS));
        double accesses = GpuSampledReplay.estimatedAccesses(narrow, format);
        int stride = (int) Math.max(1, Math.min(w.rows(), Math.ceil(accesses / accessBudget)));
        MatrixView rows = SimulatedTraffic.sampledRows(w.matrix(), stride);
        Workload sample = new Workload(w.name(), MatrixScan.of(rows, Workloads.scanOptions(rows)), narrow.denseColumns(), w.dtype(), rows);
        SimulatedTraffic.Replay r = GpuSampledReplay.replay(sample, format, spec, Long.MAX_VALUE / 8);
        Traffic a = AnalyticalTraffic.estimate(FormatModels.byName(format).plan(sample, spec).streams(), spec, Features.ALL);
        double[] replay = {r.passed()[0], r.passed()[1]};
        double[] analytical = {a.bytesAt(1), a.dramBytes()};
        String label = sample.rows() + "x" + sample.cols() + "x" + sample.denseColumns() + (stride > 1 ? " (1 in " + stride + " rows" : " (all rows")
                + (narrow.denseColumns() < w.denseColumns() ? ", N " + narrow.denseColumns() + " of " + w.denseColumns() + ")" : ")");
        return new TrafficCheck(w.name(), label, List.of("L2", "DRAM"), replay, analytical);
    }
}

package dev.sparseprof.perfmodel;

import dev.sparseprof.hw.ComputeUnit;
import dev.sparseprof.util.DType;
import java.util.List;

/**
 * What one format's kernel ({@code format}: its registry name) does for one workload on one machine: which units compute in which
 * dtype, how many FLOPs they execute (zeros of padded blocks included; dense-equivalent FLOPs for
 * 2:4) at which fraction of the unit's peak, how many B row slices it gathers at unpredictable
 * addresses (the latency roof's count), the arrays it moves, how its work spreads over cores/SMs, and its fixed overheads;
 * {@code chainSeconds} is the time its chains of dependent loads take at the least (a GPU sparse
 * kernel's: no schedule hides a warp's own chain), a roof of its own whatever the features. The
 * {@link Roofline} turns a plan into a time.
 */
public record KernelPlan(String format, String kernel, ComputeUnit unit, DType computeDType, double executedFlops,
                         List<DataStream> streams, Balance balance, double overheadSeconds, double computeEfficiency,
                         double sliceGathers, double chainSeconds) {
    /** A kernel without a chain of dependent loads that bounds it ({@code chainSeconds} 0). */
    public KernelPlan(String format, String kernel, ComputeUnit unit, DType computeDType, double executedFlops, List<DataStream> streams,
                      Balance balance, double overheadSeconds, double computeEfficiency, double sliceGathers) {
        this(format, kernel, unit, computeDType, executedFlops, streams, balance, overheadSeconds, computeEfficiency, sliceGathers, 0);
    }

    public KernelPlan {
        streams = List.copyOf(streams);
        if (!(executedFlops >= 0) || !(overheadSeconds >= 0) || !(sliceGathers >= 0) || !(chainSeconds >= 0)) {
            throw new IllegalArgumentException(kernel + ": negative cost");
        }
        if (!(computeEfficiency > 0 && computeEfficiency <= 1)) throw new IllegalArgumentException(kernel + ": efficiency " + computeEfficiency);
    }

    /** A sparse kernel: at the compute peak, gathering {@code sliceGathers} B row slices (one per index and column tile). */
    static KernelPlan sparse(String format, String kernel, ComputeUnit unit, DType computeDType, double executedFlops,
                             List<DataStream> streams, Balance balance, double overheadSeconds, double sliceGathers) {
        return new KernelPlan(format, kernel, unit, computeDType, executedFlops, streams, balance, overheadSeconds, 1, sliceGathers);
    }
}

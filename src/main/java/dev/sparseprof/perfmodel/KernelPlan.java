package dev.sparseprof.perfmodel;

import dev.sparseprof.hw.ComputeUnit;
import dev.sparseprof.util.DType;
import java.util.List;

/**
 * What one format's kernel ({@code format}: its registry name) does for one workload on one machine: which units compute in which
 * dtype, how many FLOPs they execute (zeros of padded blocks included; dense-equivalent FLOPs for
 * 2:4), the arrays it moves, how its work spreads over cores/SMs, and its fixed overheads. The
 * {@link Roofline} turns a plan into a time.
 */
public record KernelPlan(String format, String kernel, ComputeUnit unit, DType computeDType, double executedFlops,
                         List<DataStream> streams, Balance balance, double overheadSeconds) {
    public KernelPlan {
        streams = List.copyOf(streams);
        if (!(executedFlops >= 0) || !(overheadSeconds >= 0)) throw new IllegalArgumentException(kernel + ": negative cost");
    }
}

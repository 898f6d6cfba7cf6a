package dev.sparseprof.measure.external;

import java.util.Objects;
import java.util.OptionalDouble;

/**
 * What the calibration and the simulator comparison take from one kernel launch of an ncu report,
 * each quantity empty when the report did not hold it (metric not collected, or {@code n/a}).
 * Metric names: Nsight Compute CLI docs, "nvprof Transition Guide — Metric Comparison".
 *
 * @param id                       ncu's launch ID (-1 in summary reports)
 * @param kernelName               {@link NcuLaunch#shortName()}
 * @param l1HitPercent             {@code l1tex__t_sector_hit_rate.pct} / "L1/TEX Hit Rate"
 * @param l2HitPercent             {@code lts__t_sector_hit_rate.pct} / "L2 Hit Rate"
 * @param dramBytes                {@code dram__bytes.sum}, or {@code dram__bytes_read.sum + dram__bytes_write.sum}
 * @param achievedOccupancyPercent {@code sm__warps_active.avg.pct_of_peak_sustained_active} / "Achieved Occupancy"
 * @param durationSeconds          {@code gpu__time_duration.sum} / "Duration"
 */
public record NcuKernelSummary(long id, String kernelName, OptionalDouble l1HitPercent, OptionalDouble l2HitPercent,
                               OptionalDouble dramBytes, OptionalDouble achievedOccupancyPercent,
                               OptionalDouble durationSeconds) {
    public NcuKernelSummary {
        Objects.requireNonNull(kernelName);
        Objects.requireNonNull(l1HitPercent);
        Objects.requireNonNull(l2HitPercent);
        Objects.requireNonNull(dramBytes);
        Objects.requireNonNull(achievedOccupancyPercent);
        Objects.requireNonNull(durationSeconds);
    }
}

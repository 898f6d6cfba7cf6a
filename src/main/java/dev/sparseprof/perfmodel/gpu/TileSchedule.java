package dev.sparseprof.perfmodel.gpu;

import dev.sparseprof.hw.GpuSpec;

/**
 * The order in which a library's GEMM kernel starts its CTAs, as the libraries' sources define it,
 * for a memory replay that follows the kernel's own schedule:
 * <ul>
 * <li>SM80 (CUTLASS 2; the {@code cutlass_library} generator's default
 *     {@code SwizzlingFunctor.Identity8}, i.e. {@code GemmIdentityThreadblockSwizzle<8>} in
 *     {@code threadblock_swizzle.h}): a grid of {@code (tilesM << log, ceil(tilesN / 2^log), splitK)}
 *     blocks, {@code log} = 3 when {@code tilesN >= 6}, 2 when {@code >= 3}, 1 when {@code >= 2}, else 0;
 *     block {@code (x, y, z)} computes tile {@code (x >> log, (y << log) + (x & (2^log - 1)))} of split
 *     {@code z} (blocks past the last N tile have nothing to do); blocks start x fastest, then y,
 *     then z. So consecutive CTAs walk down M over a band of {@code 2^log} N tiles.</li>
 * <li>SM90 persistent kernels (CUTLASS 3's tile scheduler, raster order {@code Heuristic}, swizzle 1):
 *     along M when {@code tilesN > tilesM}, else along N; tiles are taken in that order, one per SM at
 *     a time.</li>
 * </ul>
 * CTAs resident together start and end together (same work), so the kernel runs in rounds of
 * {@code concurrent} consecutive non-empty CTAs.
 */
public record TileSchedule(long tilesM, long tilesN, int splitK, long concurrent, boolean persistent) {
    public TileSchedule {
        if (tilesM < 1 || tilesN < 1 || splitK < 1 || concurrent < 1) throw new IllegalArgumentException("tile schedule: sizes must be positive");
    }

    /** The schedule of {@code plan} for {@code m} rows on {@code g}: its tiles, split and CTAs resident at once over all SMs. */
    public static TileSchedule of(GemmPlan plan, long m, GpuSpec g, boolean persistent) {
        long tilesM = (m + plan.tile().rows() - 1) / plan.tile().rows();
        long tilesN = (plan.paddedColumns() + plan.tile().cols() - 1) / plan.tile().cols();
        return new TileSchedule(tilesM, tilesN, plan.splitK(), (long) g.sms() * plan.ctasPerSm(), persistent);
    }

    /** Blocks launched, empty ones included: the order's slots. */
    public long slots() {
        if (persistent) return tilesM * tilesN * splitK;
        int log = logTile();
        return (tilesM << log) * ((tilesN + (1L << log) - 1) >> log) * splitK;
    }

    /**
     * The tile of slot {@code i} into {@code out} ({@code m} tile, {@code n} tile, split); false for a
     * block with nothing to do.
     */
    public boolean tile(long i, long[] out) {
        long perSplit = slots() / splitK;
        long z = i / perSplit;
        long j = i % perSplit;
        if (persistent) {
            boolean alongM = tilesN > tilesM;
            out[0] = alongM ? j % tilesM : j / tilesN;
            out[1] = alongM ? j / tilesM : j % tilesN;
            out[2] = z;
            return true;
        }
        int log = logTile();
        long gridX = tilesM << log;
        long x = j % gridX;
        long y = j / gridX;
        out[0] = x >> log;
        out[1] = (y << log) + (x & ((1L << log) - 1));
        out[2] = z;
        return out[1] < tilesN;
    }

    /** {@code GemmIdentityThreadblockSwizzle<8>::get_log_tile}. */
    int logTile() {
        return tilesN >= 6 ? 3 : tilesN >= 3 ? 2 : tilesN >= 2 ? 1 : 0;
    }
}

package dev.sparseprof.perfmodel.gpu;

import dev.sparseprof.hw.GpuSpec;
import java.util.Arrays;

/**
 * The order in which a library's GEMM kernel starts its CTAs, as the libraries' sources define it,
 * for a memory replay that follows the kernel's own schedule:
 * <ul>
 * <li>SM80 (CUTLASS 2's {@code GemmIdentityThreadblockSwizzle<swizzle>} in {@code threadblock_swizzle.h};
 *     the {@code cutlass_library} generator's default is {@code SwizzlingFunctor.Identity8}, the
 *     template's own default and PyTorch's 2:4 kernels' choice {@code <>}, i.e. 1: the runtime's
 *     {@code swizzle} / {@code sparseSwizzle}): a grid of {@code (tilesM << log, ceil(tilesN / 2^log), splitK)}
 *     blocks, {@code log} ({@code get_log_tile}) = 3 when {@code swizzle >= 8} and {@code tilesN >= 6},
 *     2 when {@code swizzle >= 4} and {@code >= 3}, 1 when {@code swizzle >= 2} and {@code >= 2}, else 0;
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
public record TileSchedule(long tilesM, long tilesN, int splitK, long concurrent, boolean persistent, int swizzle) {
    public TileSchedule {
        if (tilesM < 1 || tilesN < 1 || splitK < 1 || concurrent < 1) throw new IllegalArgumentException("tile schedule: sizes must be positive");
        if (Integer.bitCount(swizzle) != 1 || swizzle > 8) throw new IllegalArgumentException("tile schedule: swizzle must be 1, 2, 4 or 8, got " + swizzle);
    }

    /**
     * The schedule of {@code plan} for {@code m} rows on {@code g}: its tiles, split and CTAs resident at
     * once over all SMs, in the order of the SM80 {@code swizzle} or, when {@code persistent}, SM90's raster.
     */
    public static TileSchedule of(GemmPlan plan, long m, GpuSpec g, boolean persistent, int swizzle) {
        long tilesM = (m + plan.tile().rows() - 1) / plan.tile().rows();
        long tilesN = (plan.paddedColumns() + plan.tile().cols() - 1) / plan.tile().cols();
        return new TileSchedule(tilesM, tilesN, plan.splitK(), (long) g.sms() * plan.ctasPerSm(), persistent, swizzle);
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

    /**
     * Whether every round of {@code concurrent} consecutive CTAs (of one split) covers every N tile, so
     * each round reads all of B's strips: SM90 rastering along N over rows of at most {@code concurrent}
     * N tiles; SM80 when one band of {@code 2^log} N tiles holds them all and a round is at least a
     * band wide. Where this holds, B's strips come back every round: their reuse distance is one round.
     */
    public boolean roundsCoverN() {
        if (persistent) return tilesN <= tilesM && concurrent >= tilesN;
        int log = logTile();
        return tilesN <= (1L << log) && concurrent >= (1L << log);
    }

    /**
     * Whether every round covers every M tile, so each round reads all of A's strips: SM90 rastering
     * along M over columns of at most {@code concurrent} M tiles; SM80 when a round spans a whole
     * band's {@code tilesM << log} blocks.
     */
    public boolean roundsCoverM() {
        if (persistent) return tilesN > tilesM && concurrent >= tilesM;
        return concurrent >= (tilesM << logTile());
    }

    /**
     * The strips the kernel's rounds read when each round reads its own afresh, in strip chunks of
     * one split's K range: {@code {A chunks, B chunks}}, summed over the rounds of {@code concurrent}
     * consecutive non-empty CTAs, each round counting every (M tile, split) and (N tile, split) its
     * CTAs touch once. Walks every slot: for the few-tile grids that split K.
     */
    public long[] chunkReadsPerRound() {
        boolean[] seenA = new boolean[(int) (tilesM * splitK)];
        boolean[] seenB = new boolean[(int) (tilesN * splitK)];
        long[] t = new long[3];
        long readsA = 0;
        long readsB = 0;
        long inRound = 0;
        long slots = slots();
        for (long i = 0; i < slots; i++) {
            if (!tile(i, t)) continue;
            if (inRound == concurrent) {
                Arrays.fill(seenA, false);
                Arrays.fill(seenB, false);
                inRound = 0;
            }
            inRound++;
            int a = (int) (t[2] * tilesM + t[0]);
            int b = (int) (t[2] * tilesN + t[1]);
            if (!seenA[a]) {
                seenA[a] = true;
                readsA++;
            }
            if (!seenB[b]) {
                seenB[b] = true;
                readsB++;
            }
        }
        return new long[] {readsA, readsB};
    }

    /**
     * CTAs of one split between two reads of the same strip of the operand the raster walks (A when it
     * walks down M, B when along N): one pass down that operand, over a band of {@code 2^log} N tiles
     * on SM80 ({@code tilesM << log} blocks), one column or row of tiles on SM90.
     */
    public long passCtas() {
        if (persistent) return walksM() ? tilesM : tilesN;
        return tilesM << logTile();
    }

    /** Whether consecutive CTAs walk down M (SM80 always; SM90 when there are more N tiles than M tiles). */
    public boolean walksM() {
        return !persistent || tilesN > tilesM;
    }

    /** {@code GemmIdentityThreadblockSwizzle<swizzle>::get_log_tile}. */
    int logTile() {
        return swizzle >= 8 && tilesN >= 6 ? 3 : swizzle >= 4 && tilesN >= 3 ? 2 : swizzle >= 2 && tilesN >= 2 ? 1 : 0;
    }
}

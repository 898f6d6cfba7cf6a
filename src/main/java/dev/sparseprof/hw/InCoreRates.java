package dev.sparseprof.hw;

/**
 * A CPU's in-core rates for the project's kernels, as {@code calibrate --probe} measures them with
 * every operand in L1 (the ECM model's T_core, Kerncraft's "in-core" part), in cycles of the spec's
 * clock, at {@code vectorBits}-wide vectors. The loop counts they multiply come from
 * {@code perfmodel.cpu.LoopNests}, which follows what each kernel's inner loops execute per SIMD
 * vector; the data transfers between cache levels come from the probed bandwidths.
 *
 * <ul>
 * <li>{@code denseFmaCycles}: the dense GEMM's micro-kernel per vector FMA (4 rows x 4 vectors),
 *     {@code denseNarrowFmaCycles} its one-vector (N <= lanes) micro-kernel per vector FMA;
 * <li>{@code entryCycles}: the broadcast-and-FMA row body (csr, coo, N:M) per stored entry and
 *     column block (value broadcast, index load, address), {@code vectorCycles} per entry and
 *     vector of the block (a B load and an FMA), {@code rowBlockCycles} per row and column block
 *     (accumulators cleared and stored, loop exit);
 * <li>{@code cooEntryCycles}: COO's run search per triple (vector compares over the row indices),
 *     {@code cooRowCycles} per row (the branch that ends a run);
 * <li>{@code bsrWideCycles}: a BSR block per wide strip (4 rows x 4 vectors), {@code bsrNarrowCycles}
 *     per one-vector strip;
 * <li>{@code nmSlotCycles}: the N:M kernel's decode per kept slot (once per row);
 * <li>{@code l2CoreBytesPerSecond}: what one core reads from its private L2 (the probe's 1-thread read
 *     stream; 0 when not known): private levels scale with the cores running (Kerncraft's
 *     single-core ECM scaled to multi-core), which a probe on a shared machine, where two threads
 *     seldom run at once, could not show;
 * <li>{@code l3CoreBytesPerSecond}: what one core reads from the shared L3 (the 1-thread read
 *     stream; 0 when not known): a run on fewer threads than cores cannot draw the L3's all-cores
 *     bandwidth, and the cores running draw at most this each;
 * <li>{@code transfers}: how the transfers between levels add to T_core on this machine
 *     ({@link Transfers}), chosen by the probe from the same micro-kernel with B in L2.
 * </ul>
 * {@link #NONE} (vectorBits 0): not probed; the roofline model with fitted overheads applies.
 */
public record InCoreRates(int vectorBits, double denseFmaCycles, double denseNarrowFmaCycles, double entryCycles, double vectorCycles,
                          double rowBlockCycles, double cooEntryCycles, double cooRowCycles, double bsrWideCycles, double bsrNarrowCycles,
                          double nmSlotCycles, double l2CoreBytesPerSecond, double l3CoreBytesPerSecond, Transfers transfers) {
    /**
     * How the ECM model composes the in-core time and the transfers: {@code SERIAL}, Kerncraft's
     * model for Intel cores, {@code T = T_core + T_L1L2 + T_L2L3 + T_L3Mem} (no transfer overlaps
     * the loads that use it); {@code OVERLAPPED}, {@code T = max(T_core, T_L1L2, T_L2L3, T_L3Mem)}
     * (every transfer hides behind the others, as measured on AMD Zen cores).
     */
    public enum Transfers {
        SERIAL, OVERLAPPED;

        public String key() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        public static Transfers parse(String s) {
            for (Transfers t : values()) if (t.key().equals(s)) return t;
            throw new SpecException("cpu.inCore.transfers must be serial or overlapped, got '" + s + "'");
        }
    }

    public static final InCoreRates NONE = new InCoreRates(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, Transfers.SERIAL);

    public InCoreRates {
        if (vectorBits < 0 || vectorBits % 64 != 0) throw new SpecException("cpu.inCore.vectorBits must be a multiple of 64, got " + vectorBits);
        double[] all = {denseFmaCycles, denseNarrowFmaCycles, entryCycles, vectorCycles, rowBlockCycles, cooEntryCycles, cooRowCycles,
            bsrWideCycles, bsrNarrowCycles, nmSlotCycles, l2CoreBytesPerSecond, l3CoreBytesPerSecond};
        for (double v : all) {
            if (!(v >= 0) || Double.isInfinite(v)) throw new SpecException("cpu.inCore: cycles must not be negative, got " + v);
        }
        if (vectorBits > 0 && !(denseFmaCycles > 0 && vectorCycles > 0)) {
            throw new SpecException("cpu.inCore: denseFma and vector cycles must be positive");
        }
        if (transfers == null) throw new SpecException("cpu.inCore.transfers is required");
    }

    /** Whether the spec carries probed in-core rates. */
    public boolean present() {
        return vectorBits > 0;
    }
}

package dev.sparseprof.measure.probe;

import java.util.List;

/**
 * What the kernel micro-benchmarks of {@link KernelRateProbe} measured: the in-core seconds per unit
 * of each kernel's loop nest (every operand in L1; the overlay turns them into cycles of the effective clock; see
 * {@code hw.InCoreRates} for each unit; the BSR per-block and N:M per-slot rates are slopes, their
 * fixed parts per tile and strip and per row apart; {@code split2}/{@code split1}: the general
 * path's 2- and 1-vector column blocks per entry), the call's fixed costs, and how the CSR micro-kernel
 * with B in L2 composed its in-core time and its L2 transfer: {@code overlap}, the share of the
 * smaller of the two that the measured time hid ({@code (core + transfer - measured) / min(core,
 * transfer)}, clamped to [0, 1]: 0 serial, 1 overlapped); the three times in seconds per entry;
 * {@code denseL2}: the same composition for the dense kernel with its packed B block in L2
 * ({@link DenseL2}; null where the block cannot pass L1d);
 * {@code gather}: the sustained row-gather bandwidths ({@code hw.GatherRates}) with the calls they
 * came from ({@link Gather}), at one block of 8 vectors; {@code gatherWide} the same at two blocks;
 * {@code oneColumn}: the kernels' bodies at N = 1 ({@link OneColumn}; null where not measured).
 */
public record KernelRates(int vectorBits, double denseFmaSeconds, double denseNarrowFmaSeconds, double block8Seconds, double block4Seconds,
                          double block2Seconds, double oneVectorSeconds, double rowBlockSeconds, double wholeRowSeconds, double cooEntrySeconds, double cooRowSeconds, double bsrWideSeconds, double bsrNarrowSeconds,
                          double nmSlotSeconds, double bsrTileSeconds, double nmRowSeconds, double split2Seconds, double split1Seconds, double launchSeconds, double forkJoinSeconds, double overlap,
                          double l2MeasuredSeconds, double l2CoreSeconds, double l2TransferSeconds, DenseL2 denseL2, Gather gather, Gather gatherWide,
                          double elapsedSeconds, OneColumn oneColumn) {
    /**
     * The dense kernel at K = {@code k} (its K block) and N = {@code n} columns, where the packed
     * {@code k x n} block of B is larger than L1d and every row tile streams it from L2; its
     * {@link Transfer} per vector FMA: measured as a difference of two row counts, in-core the
     * in-L1 rate, the block's bytes per FMA at the L2 read bandwidth, and the overlap solved from
     * them as csr's is.
     */
    public record DenseL2(int k, int n, Transfer transfer) {}

    /**
     * A transfer check (csr's or dense's): seconds per unit measured with the operand in L2, in-core
     * (the in-L1 rate) and the L2 transfer (its bytes at the L2 read bandwidth), and the overlap
     * solved from them.
     */
    public record Transfer(double measuredSeconds, double coreSeconds, double transferSeconds, double overlap) {
        /** The median of each over the rounds: the overlap is the median of the rounds' overlaps, not one solved from the median times. */
        static Transfer median(List<Transfer> rounds) {
            return new Transfer(KernelRateProbe.medianOf(rounds, Transfer::measuredSeconds), KernelRateProbe.medianOf(rounds, Transfer::coreSeconds),
                    KernelRateProbe.medianOf(rounds, Transfer::transferSeconds), KernelRateProbe.medianOf(rounds, Transfer::overlap));
        }
    }

    /**
     * The sustained gather: one CSR call of {@code entries} random-column entries at 8 vectors (or two blocks of them) over
     * a B in L2 took {@code measuredSeconds} (the call's fixed costs and B's private copies out) on 1
     * thread and {@code allMeasuredSeconds} on {@code threads}; in-core {@code coreSeconds} (1
     * thread); {@code l2Bytes} of B's rows missed L1; the bandwidths at which the ECM composition
     * with {@code overlap} gives those times (at most the streaming read's): the transfer check's
     * overlap, or, where the 1-thread call ran faster than that allows at the streaming read's
     * rate, the overlap solved from the call at that rate ({@code hw.GatherRates}).
     */
    public record Gather(long entries, double l2Bytes, double coreSeconds, double measuredSeconds, double allMeasuredSeconds, int threads,
                         double coreBytesPerSecond, double allBytesPerSecond, double overlap) {}

    /**
     * The kernels' bodies at N = 1 ({@code hw.OneColumnRates}): the gather dot ({@code kernel.GatherRows})
     * per whole vector of a row's entries, per row and per entry of a row's scalar tail; the dense
     * matrix-vector product ({@code kernel.DenseGemv}) per vector FMA and per row, and the bytes of
     * A per second its whole calls stream from L2 and from L3 on one core; SELL ({@code kernel.SellSpmm}) per
     * slot vector, per chunk and column, per transposed element of B (zeros: not probed).
     */
    public record OneColumn(double spmvVectorSeconds, double spmvRowSeconds, double spmvTailSeconds, double gemvFmaSeconds,
                            double gemvRowSeconds, double sellSlotSeconds, double sellChunkSeconds, double sellTransposeSeconds,
                            double gemvL2BytesPerSecond, double gemvL3BytesPerSecond) {
        public OneColumn(double spmvVectorSeconds, double spmvRowSeconds, double spmvTailSeconds, double gemvFmaSeconds, double gemvRowSeconds) {
            this(spmvVectorSeconds, spmvRowSeconds, spmvTailSeconds, gemvFmaSeconds, gemvRowSeconds, 0, 0, 0, 0, 0);
        }
    }

    public KernelRates {
        double[] all = {denseFmaSeconds, denseNarrowFmaSeconds, block8Seconds, block4Seconds, block2Seconds, oneVectorSeconds, rowBlockSeconds, wholeRowSeconds,
            cooEntrySeconds, cooRowSeconds,
            bsrWideSeconds, bsrNarrowSeconds, nmSlotSeconds, bsrTileSeconds, nmRowSeconds, split2Seconds, split1Seconds, launchSeconds, forkJoinSeconds};
        for (double v : all) if (!(v >= 0) || Double.isInfinite(v)) throw new IllegalArgumentException("kernel rates must be finite and >= 0, got " + v);
    }

    /** These rates with the sustained gathers (one block, two blocks) measured after them, and the probe's whole time. */
    public KernelRates withGathers(Gather g, Gather wide, double elapsed) {
        return new KernelRates(vectorBits, denseFmaSeconds, denseNarrowFmaSeconds, block8Seconds, block4Seconds, block2Seconds, oneVectorSeconds,
                rowBlockSeconds, wholeRowSeconds, cooEntrySeconds, cooRowSeconds, bsrWideSeconds, bsrNarrowSeconds, nmSlotSeconds, bsrTileSeconds,
                nmRowSeconds, split2Seconds, split1Seconds, launchSeconds, forkJoinSeconds, overlap, l2MeasuredSeconds, l2CoreSeconds,
                l2TransferSeconds, denseL2, g, wide, elapsed, oneColumn);
    }
}

package dev.sparseprof.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.sparse.BsrMatrix;
import dev.sparseprof.sparse.CsrMatrix;
import dev.sparseprof.sparse.EllMatrix;
import dev.sparseprof.sparse.NmMatrix;
import dev.sparseprof.sparse.SellMatrix;
import dev.sparseprof.sparse.stats.BlockShape;
import dev.sparseprof.sparse.stats.NmPattern;
import dev.sparseprof.trace.ArrayRole;
import dev.sparseprof.trace.TraceSink;
import dev.sparseprof.util.MatrixView;
import org.junit.jupiter.api.Test;

/** The traced twins' access counts equal the kernels' work. */
class TraceCountTest {
    private static final int LANES = KernelVectors.FLOATS.length();

    @Test
    void csrBroadcastCountsEqualItsWork() {
        for (int n : new int[] {1, 16, 48, 128, 130}) {
            int m = 29;
            int k = 61;
            CsrMatrix a = CsrMatrix.from(MatrixView.of(m, k, RandomMatrices.sparse(m, k, 0.2, n)));
            CountingSink sink = trace(new CsrSpmm(), RowSlices.of(a), n, k, new StaticRowsPartition(), 1)[0];
            int blocks = columnBlocks(n);
            assertEquals((long) a.nnz() * blocks, sink.reads(ArrayRole.VALUES), "values, n=" + n);
            assertEquals((long) a.nnz() * blocks, sink.reads(ArrayRole.COLUMN_INDICES), "colidx, n=" + n);
            assertEquals(2L * m, sink.reads(ArrayRole.ROW_POINTERS), "rowptr, n=" + n);
            assertEquals(4L * a.nnz() * n, sink.readBytes(ArrayRole.B_GATHER), "B bytes, n=" + n);
            assertEquals((long) a.nnz() * ((n + LANES - 1) / LANES), sink.reads(ArrayRole.B_GATHER), "B vector reads, n=" + n);
            assertEquals(4L * m * n, sink.writeBytes(ArrayRole.C_SCATTER), "C bytes, n=" + n);
            assertEquals(0, sink.writes(ArrayRole.B_GATHER));
        }
    }

    @Test
    void ellReadsEveryPaddedSlotAndNoRowPointers() {
        int m = 17;
        int k = 33;
        int n = 16;
        CsrMatrix csr = CsrMatrix.from(MatrixView.of(m, k, RandomMatrices.sparse(m, k, 0.3, 9)));
        RowSlices ell = RowSlices.of(EllMatrix.from(csr));
        CountingSink sink = trace(new CsrSpmm(SliceKernel.SliceFormat.ELL), ell, n, k, new StaticRowsPartition(), 1)[0];
        assertEquals(k, ell.slots() / m, "row 2 is dense: ELL width is K");
        assertEquals(ell.slots(), sink.reads(ArrayRole.VALUES));
        assertEquals(0, sink.reads(ArrayRole.ROW_POINTERS));
        assertEquals(4L * m * n, sink.writeBytes(ArrayRole.C_SCATTER));
    }

    @Test
    void twoFourReadsItsMetadataNotColumnIndices() {
        int m = 11;
        int k = 42; // a partial last group
        int n = 16;
        float[] dense = RandomMatrices.twoFour(RandomMatrices.sparse(m, k, 0.6, 4), m, k);
        NmSpmm kernel = new NmSpmm(NmPattern.TWO_FOUR);
        NmMatrix a = kernel.prepare(MatrixView.of(m, k, dense));
        CountingSink sink = trace(kernel, a, n, k, new StaticRowsPartition(), 1)[0];
        long slots = (long) m * ((k + 3) / 4) * 2;
        assertEquals(slots, sink.reads(ArrayRole.VALUES));
        assertEquals(slots, sink.readBytes(ArrayRole.METADATA), "one position byte per slot");
        assertEquals(0, sink.reads(ArrayRole.COLUMN_INDICES));
        assertEquals(0, sink.reads(ArrayRole.ROW_POINTERS));
    }

    @Test
    void halfPrecisionValuesAreTwoBytesEach() {
        int m = 13;
        int k = 29;
        int n = 16;
        CsrMatrix csr = CsrMatrix.from(MatrixView.of(m, k, RandomMatrices.sparse(m, k, 0.4, 6)));
        CsrHalfSpmm kernel = new CsrHalfSpmm(HalfRowSlices.Encoding.BF16);
        HalfRowSlices a = HalfRowSlices.of(csr, HalfRowSlices.Encoding.BF16);
        SpmmPlan<HalfRowSlices> plan = SpmmPlan.of(kernel, a, n, new StaticRowsPartition(), 1);
        CountingSink sink = new CountingSink();
        ArrayLayout half = ArrayLayout.sequential(0, 64, a.arrayBytes(), kernel.valueBytes());
        plan.trace(RandomMatrices.dense(k, n, 1), new float[m * n], half, new TraceSink[] {sink});
        assertEquals(csr.nnz(), sink.reads(ArrayRole.VALUES));
        assertEquals(2L * csr.nnz(), sink.readBytes(ArrayRole.VALUES));
        assertEquals(4L * csr.nnz(), sink.readBytes(ArrayRole.COLUMN_INDICES));
    }

    @Test
    void scatterAndBlockKernelsCountTheirWork() {
        int m = 19;
        int k = 37;
        int n = 20;
        float[] dense = RandomMatrices.sparse(m, k, 0.3, 8);
        MatrixView view = MatrixView.of(m, k, dense);
        long nnz = CsrMatrix.from(view).nnz();

        CooSpmm coo = new CooSpmm();
        CountingSink c = trace(coo, coo.prepare(view), n, k, new StaticRowsPartition(), 1)[0];
        int columnBlocks = columnBlocks(n);
        assertEquals(nnz * columnBlocks, c.reads(ArrayRole.VALUES), "row runs: values once per column block");
        // the run search reads row indices a vector at a time, each up to the first of the next row
        long indexBytes = c.readBytes(ArrayRole.ROW_POINTERS);
        assertTrue(indexBytes >= 4L * nnz && indexBytes <= 4L * (nnz + (long) m * LANES), "row index bytes " + indexBytes);
        assertTrue(c.reads(ArrayRole.ROW_POINTERS) < nnz, "vector reads of the row indices");
        assertEquals(4L * nnz * n, c.readBytes(ArrayRole.B_GATHER));
        assertEquals(0, c.reads(ArrayRole.C_SCATTER), "row runs keep C in registers");
        assertEquals(4L * m * n, c.writeBytes(ArrayRole.C_SCATTER));

        CooSpmm scatter = new CooSpmm(false);
        c = trace(scatter, scatter.prepare(view), n, k, new StaticRowsPartition(), 1)[0];
        assertEquals(nnz, c.reads(ArrayRole.VALUES));
        assertEquals(nnz, c.reads(ArrayRole.ROW_POINTERS), "one row index per triple");
        assertEquals(4L * nnz * n, c.readBytes(ArrayRole.B_GATHER));
        assertEquals(4L * nnz * n, c.readBytes(ArrayRole.C_SCATTER), "scatter: C read per entry");

        CscSpmm csc = new CscSpmm();
        c = trace(csc, csc.prepare(view), n, k, new StaticRowsPartition(), 1)[0];
        assertEquals(nnz, c.reads(ArrayRole.COLUMN_INDICES), "one row index per entry");
        assertEquals(2L * k, c.reads(ArrayRole.ROW_POINTERS), "two column pointers per column");
        assertEquals(4L * nnz * n, c.readBytes(ArrayRole.B_GATHER));

        BsrSpmm bsr = new BsrSpmm(new BlockShape(4, 4));
        BsrMatrix blocks = bsr.prepare(view);
        c = trace(bsr, blocks, n, k, new StaticRowsPartition(), 1)[0];
        // n = 20: at 16 lanes a one-vector strip and a masked strip, at 8 lanes a 2-vector strip (16
        // registers) and a masked one; each strip walks every block of its block row
        int strips = 0;
        for (int c0 = 0; c0 < n; c0 += BlockRowTiles.stripWidth(n - c0)) strips++;
        long blockColumns = 0;
        for (int col : blocks.blockColumnIndices()) blockColumns += Math.min(4, k - 4 * col);
        assertEquals((long) strips * blocks.blockCount(), c.reads(ArrayRole.COLUMN_INDICES), "one block column per block and strip");
        assertEquals(2L * ((m + 3) / 4), c.reads(ArrayRole.ROW_POINTERS));
        assertEquals(4L * strips * blockColumns, c.reads(ArrayRole.VALUES), "4 tile rows per block column and strip");
        assertEquals(4L * n * blockColumns, c.readBytes(ArrayRole.B_GATHER), "each B row strip once per block column");
        assertEquals(4L * m * n, c.writeBytes(ArrayRole.C_SCATTER));
        assertTrue(c.reads(ArrayRole.VALUES) >= nnz);

        SellSpmm sell = new SellSpmm(8);
        SellMatrix chunks = sell.prepare(view);
        c = trace(sell, chunks, n, k, new StaticRowsPartition(), 1)[0];
        long slots = chunks.values().length;
        assertEquals(4L * slots * n, c.readBytes(ArrayRole.VALUES), "every slot once per column of B");
        assertEquals(4L * k * n + 4L * slots * n, c.readBytes(ArrayRole.B_GATHER), "the transpose, then one gather lane per slot and column");
        assertEquals((long) m * n, c.writes(ArrayRole.C_SCATTER));
        // at N = 1 B is its own transpose: no copy, one gather lane per slot straight from B
        c = trace(sell, chunks, 1, k, new StaticRowsPartition(), 1)[0];
        assertEquals(4L * slots, c.readBytes(ArrayRole.B_GATHER), "N = 1: the gathers alone");
        assertEquals(0, c.writes(ArrayRole.B_GATHER));
    }

    /** SELL's transposed columns lie an odd number of 64-byte lines apart, so the transpose's N stores fall in different L1 sets. */
    @Test
    void sellTransposesBAtAnOddLineStride() {
        assertEquals(16 * 129, SellSpmm.transposedStride(2048));
        assertEquals(16 * 257, SellSpmm.transposedStride(4096));
        assertEquals(16 * 25, SellSpmm.transposedStride(384));
        assertEquals(1552, SellSpmm.transposedStride(1552));
        assertEquals(16, SellSpmm.transposedStride(3));
        for (int k = 1; k < 5000; k += 37) {
            int stride = SellSpmm.transposedStride(k);
            assertTrue(stride >= k && stride % 16 == 0 && (stride / 16) % 2 == 1, "k=" + k);
        }
    }

    @Test
    void csrGatherCountsEqualItsWork() {
        int m = 23;
        int k = 77;
        int n = 3;
        CsrMatrix a = CsrMatrix.from(MatrixView.of(m, k, RandomMatrices.sparse(m, k, 0.4, 5)));
        CountingSink sink = trace(new CsrGatherSpmm(), RowSlices.of(a), n, k, new NnzBalancedPartition(), 1)[0];
        assertEquals(4L * a.nnz() * n, sink.readBytes(ArrayRole.VALUES));
        assertEquals(4L * a.nnz() * n, sink.readBytes(ArrayRole.COLUMN_INDICES));
        // k*n reads of B to transpose it, then one 4-byte gather lane per entry and column
        assertEquals(4L * k * n + 4L * a.nnz() * n, sink.readBytes(ArrayRole.B_GATHER));
        assertEquals((long) m * n, sink.writes(ArrayRole.C_SCATTER));
    }

    @Test
    void mergePathCarriesAddFixUpTraffic() {
        int m = 8;
        int k = 40;
        int n = 16;
        float[] dense = RandomMatrices.sparse(m, k, 0.9, 3);
        CsrMatrix a = CsrMatrix.from(MatrixView.of(m, k, dense));
        CountingSink[] sinks = trace(new CsrSpmm(), RowSlices.of(a), n, k, new MergePathPartition(), 4);
        long values = 0;
        long cWrites = 0;
        for (CountingSink s : sinks) {
            values += s.reads(ArrayRole.VALUES);
            cWrites += s.writeBytes(ArrayRole.C_SCATTER);
        }
        assertEquals(a.nnz(), values, "every entry read once across threads");
        assertTrue(cWrites > 4L * m * n, "carried rows are written twice (carry, then fix-up)");
    }

    @Test
    void denseCountsEqualItsWork() {
        int m = 10; // tiles of DenseGemm.MR rows (4 or 6) + tail rows
        int k = 300; // K blocks of DenseGemm.KC (this machine's tiling)
        int n = 80; // panels of DenseGemm.NR, the last partial
        float[] dense = RandomMatrices.dense(m, k, 1);
        DenseMatrix a = new DenseMatrix(m, k, dense);
        CountingSink sink = trace(new DenseGemm(), a, n, k, new StaticRowsPartition(), 1)[0];
        assertTrue(n <= DenseGemm.NC, "one C column block");
        int kBlocks = (k + DenseGemm.KC - 1) / DenseGemm.KC;
        int panels = DenseGemm.panelCount(n);
        assertEquals((n + DenseGemm.NR - 1) / DenseGemm.NR, panels, "80 columns: one NR panel and a one-vector panel, or whole NR panels");
        assertEquals((long) m * k * panels, sink.reads(ArrayRole.DENSE_A), "A broadcast per row, k, panel");
        assertEquals(4L * m * n * kBlocks, sink.writeBytes(ArrayRole.C_SCATTER), "C written once per K block");
        assertEquals(4L * m * n * (kBlocks - 1), sink.readBytes(ArrayRole.C_SCATTER), "C read back after the first K block");
    }

    @Test
    void denseNarrowPanelsPackNoWholeZeroVectors() {
        int l = LANES;
        for (int n : new int[] {2 * l, 3 * l, 2 * l + 3, l + 1, DenseGemm.NR + l}) {
            int packed = 0;
            for (int col = 0; col < n; col += DenseGemm.panelWidth(col, n)) packed += DenseGemm.panelWidth(col, n);
            assertTrue(packed < n + l, "N = " + n + ": packed " + packed + " columns, less than one vector of padding");
        }
        int m = 13;
        int k = 40;
        int n = 3 * l; // at 16 lanes: a 32-column and a 16-column panel, 6-row and 8-row tiles
        DenseMatrix a = new DenseMatrix(m, k, RandomMatrices.dense(m, k, 5));
        CountingSink sink = trace(new DenseGemm(), a, n, k, new StaticRowsPartition(), 1)[0];
        assertEquals((long) m * k * DenseGemm.panelCount(n), sink.reads(ArrayRole.DENSE_A), "A broadcast per row, k, panel");
        assertEquals(4L * m * n, sink.writeBytes(ArrayRole.C_SCATTER), "C written once");
    }

    private static int columnBlocks(int n) {
        int blocks = 0;
        for (int c0 = 0; c0 < n; c0 += ColumnBlocks.width(n - c0, LANES)) blocks++;
        return blocks;
    }

    private static <A> CountingSink[] trace(SpmmKernel<A> kernel, A a, int n, int k, Partition partition, int threads) {
        SpmmPlan<A> plan = SpmmPlan.of(kernel, a, n, partition, threads);
        CountingSink[] sinks = new CountingSink[threads];
        for (int t = 0; t < threads; t++) sinks[t] = new CountingSink();
        float[] b = RandomMatrices.dense(k, n, 2);
        plan.trace(b, new float[kernel.rows(a) * n], KernelOracleTest.layout(), (TraceSink[]) sinks);
        return sinks;
    }
}

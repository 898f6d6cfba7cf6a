package dev.sparseprof.sparse.stats;

import dev.sparseprof.util.MatrixView;
import dev.sparseprof.util.Progress;
import dev.sparseprof.util.SparseprofException;
import java.util.ArrayList;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import java.util.List;
import java.util.Random;

/** The scan against a naive element-by-element oracle, on shapes that straddle words and vectors. */
class MatrixScanTest {
    private static final ScanOptions WIDE = new ScanOptions(
            List.of(NmPattern.TWO_FOUR, NmPattern.ONE_TWO, NmPattern.FOUR_EIGHT, new NmPattern(3, 5),
                    new NmPattern(8, 16), new NmPattern(40, 64), new NmPattern(0, 3), new NmPattern(50, 128),
                    new NmPattern(1, 4), new NmPattern(6, 8), new NmPattern(0, 2)), // a second pattern of M = 2, 4, 8: outside the shared loop
            List.of(BlockShape.B4X4, BlockShape.B8X8, BlockShape.B16X16, new BlockShape(3, 5),
                    new BlockShape(2, 128), new BlockShape(1, 1), new BlockShape(5, 64)),
            true, 1);

    @ParameterizedTest
    @CsvSource({"1,1,0.5", "1,200,0.3", "200,1,0.3", "7,63,0.5", "9,64,0.1", "17,65,0.9", "33,130,0.5",
            "5,1000,0.02", "40,77,0.0", "12,300,1.0", "0,5,0.5", "5,0,0.5",
            "70000,3,0.9", "131075,1,1.0"}) // the last two pass both counter levels' flushes (15 and 65535 rows)
    void matchesTheNaiveOracle(int rows, int cols, double density) {
        float[] a = random(rows, cols, density, new Random(rows * 31L + cols));
        MatrixStats stats = MatrixScan.of(MatrixView.of(rows, cols, a), WIDE);
        assertEquals(rows, stats.rows());
        assertEquals(cols, stats.cols());
        int[] rowLen = new int[rows];
        int[] colLen = new int[cols];
        long nnz = 0;
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < cols; c++) {
                if (a[r * cols + c] != 0f) { rowLen[r]++; colLen[c]++; nnz++; }
            }
        }
        assertEquals(nnz, stats.nnz());
        assertEquals(Lengths.of(rowLen), stats.rowLengths());
        assertEquals(Lengths.of(colLen), stats.columnCounts());
        for (NmPattern p : WIDE.patterns()) {
            long groups = 0;
            long ok = 0;
            for (int r = 0; r < rows; r++) {
                for (int g = 0; g < cols; g += p.m()) {
                    int k = 0;
                    for (int c = g; c < Math.min(cols, g + p.m()); c++) if (a[r * cols + c] != 0f) k++;
                    groups++;
                    if (k <= p.n()) ok++;
                }
            }
            assertEquals(new NmCompliance(p, groups, ok), stats.nm(p), p.label());
        }
        for (BlockShape s : WIDE.blocks()) {
            long blocks = 0;
            long nonEmpty = 0;
            long elements = 0;
            int[] perBand = new int[s.blockRowsOf(rows)];
            for (int r0 = 0; r0 < rows; r0 += s.rows()) {
                for (int c0 = 0; c0 < cols; c0 += s.cols()) {
                    blocks++;
                    int k = 0;
                    int area = 0;
                    for (int r = r0; r < Math.min(rows, r0 + s.rows()); r++) {
                        for (int c = c0; c < Math.min(cols, c0 + s.cols()); c++) {
                            area++;
                            if (a[r * cols + c] != 0f) k++;
                        }
                    }
                    if (k > 0) { nonEmpty++; elements += area; perBand[r0 / s.rows()]++; }
                }
            }
            BlockDensity got = stats.blocks(s);
            assertEquals(new BlockDensity(s, blocks, nonEmpty, elements, nnz, null),
                    new BlockDensity(got.shape(), got.blocks(), got.nonEmptyBlocks(), got.nonEmptyElements(), got.nnz(), null), s.label());
            assertArrayEquals(perBand, got.perBlockRow().toArray(), s.label() + " per band");
        }
    }

    @Test
    void threadsDoNotChangeTheResult() {
        int rows = 301;
        int cols = 97;
        float[] a = random(rows, cols, 0.3, new Random(7));
        MatrixStats one = MatrixScan.of(MatrixView.of(rows, cols, a), WIDE);
        for (int threads : new int[] {2, 3, 8, 1000}) {
            assertEquals(one, MatrixScan.of(MatrixView.of(rows, cols, a), WIDE.withThreads(threads)), threads + " threads");
            for (long taskElements : new long[] {1, 97 * 16, 97 * 50, 97 * 300}) {
                assertEquals(one, MatrixScan.ofAll(List.of(MatrixView.of(rows, cols, a)), WIDE.withThreads(threads), Progress.NONE, taskElements).get(0),
                        threads + " threads, tasks of " + taskElements + " elements");
            }
        }
    }

    @Test
    void manyThreadsOnSmallBandsAgree() {
        int rows = 203;
        int cols = 70;
        float[] a = random(rows, cols, 0.4, new Random(11));
        ScanOptions options = new ScanOptions(List.of(NmPattern.TWO_FOUR), List.of(BlockShape.B4X4, new BlockShape(2, 3)), true, 1);
        MatrixStats one = MatrixScan.of(MatrixView.of(rows, cols, a), options);
        assertEquals(one, MatrixScan.of(MatrixView.of(rows, cols, a), options.withThreads(7)));
        assertEquals(one, MatrixScan.ofAll(List.of(MatrixView.of(rows, cols, a)), options.withThreads(7), Progress.NONE, 1).get(0), "one band a task");
    }

    /**
     * One team over many matrices (empty ones, one row, shapes that straddle words), with tasks of
     * a few bands, each thread holding parts of several matrices in turn: every matrix's statistics
     * are its own scan's, with bitmaps from the view or from float rows.
     */
    @Test
    void oneTeamOverManyMatricesGivesEachItsOwnStatistics() {
        int[][] shapes = {{301, 97}, {0, 5}, {1, 200}, {64, 64}, {5, 0}, {1000, 3}, {130, 130}, {17, 65}};
        List<MatrixView> views = new ArrayList<>();
        List<MatrixStats> alone = new ArrayList<>();
        for (int i = 0; i < shapes.length; i++) {
            int rows = shapes[i][0];
            int cols = shapes[i][1];
            float[] a = random(rows, cols, 0.05 + 0.1 * i, new Random(i));
            views.add(i % 2 == 0 ? MatrixView.of(rows, cols, a) : withBits(rows, cols, a));
            alone.add(MatrixScan.of(MatrixView.of(rows, cols, a), WIDE));
        }
        for (int threads : new int[] {1, 2, 5}) {
            for (long taskElements : new long[] {1, 2000, RowTasks.TASK_ELEMENTS}) {
                assertEquals(alone, MatrixScan.ofAll(views, WIDE.withThreads(threads), Progress.NONE, taskElements),
                        threads + " threads, tasks of " + taskElements + " elements");
            }
        }
    }

    @Test
    void aFailingRowStopsTheTeamAndReachesTheCaller() {
        MatrixView failing = new MatrixView() {
            @Override public int rows() { return 4000; }
            @Override public int cols() { return 8; }
            @Override public void copyRow(int row, float[] dst, int offset) {
                if (row == 2500) throw new SparseprofException("row 2500 unreadable");
            }
        };
        SparseprofException e = assertThrows(SparseprofException.class,
                () -> MatrixScan.ofAll(List.of(MatrixView.of(3, 3, new float[9]), failing), ScanOptions.DEFAULT.withThreads(2), Progress.NONE, 64));
        assertEquals("row 2500 unreadable", e.getMessage());
    }

    /** A view that gives its rows' bitmaps itself, as stored fp16/bf16/fp32 tensors do. */
    private static MatrixView withBits(int rows, int cols, float[] a) {
        MatrixView plain = MatrixView.of(rows, cols, a);
        return new MatrixView() {
            @Override public int rows() { return rows; }
            @Override public int cols() { return cols; }
            @Override public void copyRow(int row, float[] dst, int offset) { plain.copyRow(row, dst, offset); }
            @Override public int nonZeroBits(int row, long[] words) {
                Arrays.fill(words, 0, RowBits.wordsFor(cols), 0L);
                int n = 0;
                for (int c = 0; c < cols; c++) {
                    if (a[row * cols + c] != 0f) { words[c >>> 6] |= 1L << c; n++; }
                }
                return n;
            }
        };
    }

    @Test
    void progressEndsAtTheRowCountAndLeavesFinishToTheCaller() {
        long[] last = {-1, -1};
        boolean[] finished = {false};
        Progress p = new Progress() {
            @Override public void update(long done, long total) { last[0] = done; last[1] = total; }
            @Override public void finish() { finished[0] = true; }
        };
        MatrixScan.of(MatrixView.of(3000, 2, new float[6000]), ScanOptions.DEFAULT.withThreads(2), p);
        assertEquals(3000, last[0]);
        assertEquals(3000, last[1]);
        assertEquals(false, finished[0]);
        MatrixScan.ofAll(List.of(MatrixView.of(3000, 2, new float[6000]), MatrixView.of(500, 3, new float[1500])),
                ScanOptions.DEFAULT.withThreads(2), p, 64);
        assertEquals(3500, last[0], "rows over every matrix");
        assertEquals(3500, last[1]);
    }

    @Test
    void summaryAndSparsity() {
        // rows with 0, 2 and 4 non-zeros of 4
        float[] a = {0, 0, 0, 0, 1, 0, 2, 0, 1, 2, 3, 4};
        MatrixStats s = MatrixScan.of(3, 4, a);
        assertEquals(6, s.nnz());
        assertEquals(0.5, s.sparsity(), 1e-12);
        LengthSummary rows = s.rowSummary();
        assertEquals(0, rows.min());
        assertEquals(4, rows.max());
        assertEquals(2.0, rows.mean(), 1e-12);
        assertEquals(Math.sqrt(8.0 / 3) / 2.0, rows.cv(), 1e-12);
        assertEquals(2.0 / 3, s.nm(NmPattern.TWO_FOUR).fraction(), 1e-12);
        BlockDensity b4 = s.blocks(BlockShape.B4X4);
        assertEquals(1, b4.blocks());
        assertEquals(0.5, b4.meanFill(), 1e-12);
        LengthHistogram h = s.rowLengths().histogram(2);
        assertEquals(2, h.bins());
        assertEquals(3, h.binWidth());
        assertEquals(2, h.count(0));
        assertEquals(1, h.count(1));
    }

    @Test
    void nanCountsAndNegativeZeroDoesNot() {
        MatrixStats s = MatrixScan.of(1, 3, new float[] {Float.NaN, -0.0f, 1});
        assertEquals(2, s.nnz());
    }

    @Test
    void unscannedShapesNameWhatWasScanned() {
        MatrixStats s = MatrixScan.of(2, 2, new float[4]);
        SparseprofException e = assertThrows(SparseprofException.class, () -> s.blocks(new BlockShape(2, 3)));
        assertEquals("statistics hold no 2x3 block counts (scanned: 4x4, 8x8, 16x16)", e.getMessage());
        assertEquals(0.0, s.sparsity() - 1.0, 1e-12);
        MatrixStats noColumns = MatrixScan.of(MatrixView.of(2, 2, new float[4]),
                new ScanOptions(List.of(), List.of(), false, 1));
        assertNull(noColumns.columnCounts());
    }

    @Test
    void parsersNameTheFault() {
        assertEquals(new NmPattern(2, 4), NmPattern.parse(" 2:4 "));
        assertEquals(new BlockShape(4, 8), BlockShape.parse("4x8"));
        assertEquals("N:M pattern 4:4: need 0 <= N < M", assertThrows(SparseprofException.class, () -> NmPattern.parse("4:4")).getMessage());
        assertThrows(SparseprofException.class, () -> NmPattern.parse("2-4"));
        assertThrows(SparseprofException.class, () -> BlockShape.parse("4x"));
        assertThrows(SparseprofException.class, () -> BlockShape.parse("0x4"));
    }

    static float[] random(int rows, int cols, double density, Random rnd) {
        float[] a = new float[rows * cols];
        for (int i = 0; i < a.length; i++) if (rnd.nextDouble() < density) a[i] = (float) (rnd.nextGaussian() + 0.01);
        // a dense row and an empty row when there is room
        if (rows > 3 && cols > 0) {
            for (int c = 0; c < cols; c++) { a[cols + c] = 1.5f; a[2 * cols + c] = 0f; }
        }
        return a;
    }
}

package dev.sparseprof.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sparseprof.sparse.CsrMatrix;
import dev.sparseprof.util.MatrixView;
import dev.sparseprof.util.SparseprofException;
import org.junit.jupiter.api.Test;

class SpmmPlanTest {
    private final RowSlices a = RowSlices.of(CsrMatrix.from(MatrixView.of(3, 4, RandomMatrices.sparse(3, 4, 0.5, 1))));

    /** measure's FMA canary judges only the kernels whose register tiles go through the FMA pipes without a gather. */
    @Test
    void onlyDenseAndBlockKernelsAreFmaBound() {
        for (String name : Kernels.names()) {
            boolean expected = name.equals("dense") || name.startsWith("bsr");
            assertEquals(expected, Kernels.byName(name).fmaBound(), name);
        }
    }

    @Test
    void shapeMismatchNamesBothShapes() {
        SpmmPlan<RowSlices> plan = SpmmPlan.of(new CsrSpmm(), a, 2, new StaticRowsPartition(), 1);
        SparseprofException e = assertThrows(SparseprofException.class, () -> plan.run(new float[10], new float[6]));
        assertEquals("shape mismatch: A is 3x4, B is 5x2", e.getMessage());
        e = assertThrows(SparseprofException.class, () -> plan.run(new float[8], new float[5]));
        assertEquals("shape mismatch: C has 5 floats, A·B is 3x2", e.getMessage());
    }

    @Test
    void batchZeroAndBadPartitionAreBadInput() {
        assertThrows(SparseprofException.class, () -> SpmmPlan.of(new CsrSpmm(), a, 0, new StaticRowsPartition(), 1));
        DenseMatrix d = new DenseMatrix(2, 2, new float[4]);
        SparseprofException e = assertThrows(SparseprofException.class,
                () -> SpmmPlan.of(new DenseGemm(), d, 1, new MergePathPartition(), 2));
        assertEquals("partition 'merge' cuts rows, which kernel 'dense' cannot carry out; use static or nnz", e.getMessage());
        assertThrows(SparseprofException.class, () -> Kernels.byName("csx"));
        assertThrows(SparseprofException.class, () -> Partitions.byName("round-robin"));
    }

    @Test
    void twoFourRejectsAMatrixThatIsNot() {
        float[] a = {1, 2, 3, 0, 0, 0, 0, 0};
        SparseprofException e = assertThrows(SparseprofException.class, () -> Kernels.byName("2:4").prepare(MatrixView.of(2, 4, a)));
        assertEquals("format 2:4 cannot hold this matrix: not 2:4: row 0 group 0 has 3 non-zeros", e.getMessage());
    }

    @Test
    void partitionsCoverEveryEntryOnce() {
        int[] work = {0, 0, 10, 10, 11, 40, 40};
        for (String name : Partitions.names()) {
            for (int parts = 1; parts <= 7; parts++) {
                WorkRange[] ranges = Partitions.byName(name).split(work, parts);
                assertEquals(parts, ranges.length);
                assertEquals(0, ranges[0].rowStart());
                assertEquals(0, ranges[0].nzStart());
                for (int t = 1; t < parts; t++) {
                    assertEquals(ranges[t - 1].rowEnd(), ranges[t].rowStart(), name + " rows contiguous");
                    assertEquals(ranges[t - 1].nzEnd(), ranges[t].nzStart(), name + " entries contiguous");
                }
                assertEquals(6, ranges[parts - 1].rowEnd());
                assertEquals(40, ranges[parts - 1].nzEnd());
            }
        }
    }

    @Test
    void mergePathBalancesRowsPlusEntries() {
        int[] work = {0, 100, 100, 100, 100}; // one long row then three empty ones
        WorkRange[] ranges = new MergePathPartition().split(work, 2);
        assertEquals(52, ranges[0].nzEnd()); // path 104 steps, 52 each: 52 entries of row 0
        assertEquals(0, ranges[0].rowEnd());
    }
}

package dev.sparseprof.perfmodel;

import dev.sparseprof.util.DType;
import dev.sparseprof.util.MatrixView;
import java.util.Arrays;
import java.util.List;

/**
 * Builds a {@link Workload} from a weight matrix in one pass over its rows: non-zeros per row,
 * non-empty 4x4 blocks per block row, 2:4 compliance along K. Memory: one row buffer of
 * 4 x K floats and one int per block column.
 */
public final class WorkloadScanner {
    private static final int B = 4;

    private WorkloadScanner() {}

    public static Workload scan(String name, MatrixView a, long denseColumns, DType dtype) {
        int m = a.rows();
        int k = a.cols();
        int blockCols = (k + B - 1) / B;
        int[] rowNnz = new int[m];
        int[] blocksPerBlockRow = new int[(m + B - 1) / B];
        boolean[] blockTouched = new boolean[blockCols];
        float[] row = new float[k];
        boolean twoFour = k % 4 == 0;
        for (int br = 0; br < blocksPerBlockRow.length; br++) {
            Arrays.fill(blockTouched, false);
            int end = Math.min(m, (br + 1) * B);
            for (int r = br * B; r < end; r++) {
                a.copyRow(r, row, 0);
                int nnz = 0;
                for (int g = 0; g < blockCols; g++) {
                    int inGroup = 0;
                    int stop = Math.min(k, (g + 1) * B);
                    for (int c = g * B; c < stop; c++) if (row[c] != 0f) inGroup++;
                    nnz += inGroup;
                    if (inGroup > 0) blockTouched[g] = true;
                    if (inGroup > 2) twoFour = false;
                }
                rowNnz[r] = nnz;
            }
            int touched = 0;
            for (boolean t : blockTouched) if (t) touched++;
            blocksPerBlockRow[br] = touched;
        }
        return new Workload(name, m, k, denseColumns, dtype, new RowLengths(rowNnz),
                List.of(new BlockRows(B, B, new RowLengths(blocksPerBlockRow))), twoFour);
    }
}

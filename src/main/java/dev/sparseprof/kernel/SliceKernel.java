package dev.sparseprof.kernel;

import dev.sparseprof.sparse.CsrMatrix;
import dev.sparseprof.sparse.EllMatrix;
import dev.sparseprof.trace.ArrayRole;
import dev.sparseprof.util.MatrixView;
import java.util.Map;

/** The row-split kernels over {@link RowSlices} (CSR or ELL, a constructor argument). */
abstract class SliceKernel extends RowSplitKernel<RowSlices> {
    /** The row-slice formats. */
    enum SliceFormat { CSR, ELL }

    private final SliceFormat format;

    SliceKernel(SliceFormat format) {
        this.format = format;
    }

    SliceFormat sliceFormat() { return format; }

    @Override
    public RowSlices prepare(MatrixView matrix) {
        CsrMatrix csr = CsrMatrix.from(matrix);
        return format == SliceFormat.CSR ? RowSlices.of(csr) : RowSlices.of(EllMatrix.from(csr));
    }

    @Override public int rows(RowSlices a) { return a.rows(); }

    @Override public int cols(RowSlices a) { return a.cols(); }

    @Override public long storedEntries(RowSlices a) { return a.slots(); }

    @Override
    public long formatBytes(RowSlices a) {
        long total = 0;
        for (long bytes : a.arrayBytes().values()) total += bytes;
        return total;
    }

    @Override public int[] rowWork(RowSlices a) { return a.rowStarts(); }

    @Override boolean rowPointersStored(RowSlices a) { return a.rowPointersStored(); }

    @Override public Map<ArrayRole, Long> arrayBytes(RowSlices a) { return a.arrayBytes(); }
}

package dev.sparseprof.kernel;

import dev.sparseprof.sparse.CooMatrix;
import dev.sparseprof.sparse.CsrMatrix;
import dev.sparseprof.trace.ArrayRole;
import dev.sparseprof.util.MatrixView;
import java.util.Arrays;
import java.util.Map;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * COO SpMM over the row-major triples of a {@link CooMatrix} (its invariant: sorted by row, then
 * column), in one of two loop nests:
 * <ul>
 * <li>{@code coo} (row runs): finds the end of each row's run of triples with vector compares
 * over the sorted row indices (into index scratch, as the bitmask kernel decodes its bitmap), then
 * computes each run as CSR computes a row ({@link BroadcastRows}: the C row's column block in
 * registers across the run, one store per vector; N of one or two vectors: csr's tight loops over
 * all the rows, {@code oneVectorRows} and {@code twoVectorRows}, the run starts as row pointers).
 * It relies on the entries being grouped by row, which a {@code CooMatrix} guarantees.
 * <li>{@code coo-scatter} (entry by entry): each triple adds {@code value * B[column, :]} into
 * {@code C[row, :]} through memory ({@link Axpy}: a load, an FMA and a store per vector), reading
 * the row index per entry. It needs no order at all (the path an unsorted COO would take), and is
 * kept to show what the scatter costs.
 * </ul>
 * Work rows are the matrix rows (where each row's triples start, computed once), split between
 * threads on whole rows only.
 *
 * <p>Per SIMD vector (L lanes): {@code coo}: per L triples one row-index vector load and compare
 * (finding the run ends), then the {@link BroadcastRows} body per run, in csr's tight all-rows
 * loops at N = L and 2L (per entry 1 value, 1 column index, per vector 1 B load + 1 FMA; per run
 * the C stores). {@code coo-scatter}: per triple 3 scalar loads (row, column, value), then per
 * vector 1 B load, 1 C load, 1 FMA, 1 C store ({@link Axpy}).
 */
public final class CooSpmm implements SpmmKernel<CooSpmm.Rows> {
    /** The COO matrix and where each row's triples start (the format itself stores no row pointers). */
    public record Rows(CooMatrix matrix, int[] rowStarts) {}

    private static final VectorSpecies<Integer> IS = KernelVectors.INTS;
    private static final int IL = IS.length();
    private final boolean rowRuns;

    /** {@code rowRuns}: the row-run loop nest ({@code coo}), else entry by entry ({@code coo-scatter}). */
    public CooSpmm(boolean rowRuns) {
        this.rowRuns = rowRuns;
    }

    public CooSpmm() {
        this(true);
    }

    @Override public String name() { return rowRuns ? "coo" : "coo-scatter"; }

    @Override
    public Rows prepare(MatrixView view) {
        CooMatrix m = CooMatrix.from(CsrMatrix.from(view));
        int[] starts = new int[m.rows() + 1];
        for (int r : m.rowIndices()) starts[r + 1]++;
        for (int r = 0; r < m.rows(); r++) starts[r + 1] += starts[r];
        return new Rows(m, starts);
    }

    @Override public int rows(Rows a) { return a.matrix().rows(); }

    @Override public int cols(Rows a) { return a.matrix().cols(); }

    @Override public long storedEntries(Rows a) { return a.matrix().nnz(); }

    @Override public long formatBytes(Rows a) { return a.matrix().nnz() * 12L; }

    @Override
    public Map<ArrayRole, Long> arrayBytes(Rows a) {
        long nnz = a.matrix().nnz();
        // the row indices take the row-pointer slot of the layout: they are what locates the rows
        return Map.of(ArrayRole.ROW_POINTERS, nnz * Integer.BYTES, ArrayRole.COLUMN_INDICES, nnz * Integer.BYTES, ArrayRole.VALUES, nnz * Float.BYTES);
    }

    @Override public int[] rowWork(Rows a) { return a.rowStarts(); }

    @Override public boolean splitsRows() { return false; }

    @Override public int scratchFloats(Rows a, int n) { return rowRuns ? BroadcastRows.TRACE_SCRATCH_FLOATS : 0; }

    /** Row runs: the decoded row starts, one per row and one past the last. */
    @Override public int indexScratchInts(Rows a) { return rowRuns ? a.matrix().rows() + 1 : 0; }

    /** Every N but 1 of the row runs ({@code coo}), whose gather dot reads B itself. */
    @Override public boolean readsAlignedB(int n) { return !(rowRuns && n == 1); }

    @Override
    public void runRange(Operands<Rows> op, WorkRange range, Workspace ws) {
        ws.setCarryRow(-1);
        if (rowRuns) runRows(op, range, ws);
        else scatter(op, range);
    }

    @Override
    public void traceRange(Operands<Rows> op, WorkRange range, Workspace ws, Tracer tracer) {
        ws.setCarryRow(-1);
        if (rowRuns) traceRows(op, range, ws, tracer);
        else traceScatter(op, range, tracer);
    }

    /**
     * Finds the row runs of the range's triples and puts their starts into the index scratch
     * (absolute row index: {@code starts[r] .. starts[r+1]} are row r's triples). Each run's end is
     * found 16 row indices at a time (one vector compare against r, the first lane past it), the
     * last few one by one: one vector read per 16 triples and one unpredictable branch per row
     * (a galloping search read fewer indices but mispredicted at every probe: slower).
     * {@code tracer}: null on the fast path.
     */
    private static int[] runStarts(CooMatrix a, WorkRange range, Workspace ws, Tracer tracer) {
        int[] rowIdx = a.rowIndices();
        int[] starts = ws.indexScratch();
        int end = range.nzEnd();
        int j = range.nzStart();
        for (int r = range.rowStart(); r < range.rowEnd(); r++) {
            starts[r] = j;
            boolean found = false;
            for (; j + IL <= end; j += IL) {
                if (tracer != null) tracer.readIndices(ArrayRole.ROW_POINTERS, j, IL);
                VectorMask<Integer> past = IntVector.fromArray(IS, rowIdx, j).compare(VectorOperators.GT, r);
                if (past.anyTrue()) {
                    j += past.firstTrue();
                    found = true;
                    break;
                }
            }
            for (; !found && j < end; j++) {
                if (tracer != null) tracer.readIndices(ArrayRole.ROW_POINTERS, j, 1);
                if (rowIdx[j] > r) break;
            }
        }
        starts[range.rowEnd()] = j;
        return starts;
    }

    /**
     * The row runs decoded, then each row as CSR computes it; N = one or two vectors: csr's tight
     * loops over all the range's rows ({@code oneVectorRows}, {@code twoVectorRows}), the run starts
     * taking the place of csr's row pointers; N = 1: csr's gather dot per run ({@link GatherRows}).
     */
    private static void runRows(Operands<Rows> op, WorkRange range, Workspace ws) {
        CooMatrix a = op.a().matrix();
        int[] starts = runStarts(a, range, ws, null);
        int[] colIdx = a.columnIndices();
        float[] vals = a.values();
        int n = op.n();
        if (n == BroadcastRows.L) {
            BroadcastRows.oneVectorRows(op, vals, colIdx, starts, range.rowStart(), range.rowEnd(), range.nzStart());
            return;
        }
        if (n == 2 * BroadcastRows.L) {
            BroadcastRows.twoVectorRows(op, vals, colIdx, starts, range.rowStart(), range.rowEnd(), range.nzStart());
            return;
        }
        if (n == 1) {
            float[] b = op.b();
            float[] c = op.c();
            for (int r = range.rowStart(); r < range.rowEnd(); r++) c[r] = GatherRows.dot(vals, colIdx, starts[r], starts[r + 1], b, 0);
            return;
        }
        for (int r = range.rowStart(); r < range.rowEnd(); r++) {
            BroadcastRows.compute(op, ws.rowSlice().set(vals, colIdx, 0, starts[r], starts[r + 1], true), op.c(), r * n);
        }
    }

    /** The traced twin of {@link #runRows}: the row indices the run search reads, then the row body's accesses. */
    private static void traceRows(Operands<Rows> op, WorkRange range, Workspace ws, Tracer tracer) {
        CooMatrix a = op.a().matrix();
        int[] starts = runStarts(a, range, ws, tracer);
        int[] colIdx = a.columnIndices();
        float[] vals = a.values();
        int n = op.n();
        for (int r = range.rowStart(); r < range.rowEnd(); r++) {
            BroadcastRows.trace(op, new BroadcastRows.Slice(vals, colIdx, 0, starts[r], starts[r + 1], true), op.c(), r * n, ws.scratch(), tracer);
        }
    }

    /** Clears the range's C rows, then each triple scatters into its C row through memory. */
    private static void scatter(Operands<Rows> op, WorkRange range) {
        CooMatrix a = op.a().matrix();
        int[] rowIdx = a.rowIndices();
        int[] colIdx = a.columnIndices();
        float[] vals = a.values();
        Arrays.fill(op.c(), range.rowStart() * op.n(), range.rowEnd() * op.n(), 0f);
        for (int j = range.nzStart(); j < range.nzEnd(); j++) Axpy.add(op, vals[j], colIdx[j], rowIdx[j]);
    }

    private static void traceScatter(Operands<Rows> op, WorkRange range, Tracer tracer) {
        CooMatrix a = op.a().matrix();
        int[] rowIdx = a.rowIndices();
        int[] colIdx = a.columnIndices();
        float[] vals = a.values();
        Arrays.fill(op.c(), range.rowStart() * op.n(), range.rowEnd() * op.n(), 0f);
        for (int r = range.rowStart(); r < range.rowEnd(); r++) tracer.writeFloats(ArrayRole.C_SCATTER, (long) r * op.n(), op.n());
        for (int j = range.nzStart(); j < range.nzEnd(); j++) {
            tracer.readIndices(ArrayRole.ROW_POINTERS, j, 1);
            tracer.readIndices(ArrayRole.COLUMN_INDICES, j, 1);
            tracer.readValues(j, 1);
            Axpy.traceAdd(op, vals[j], colIdx[j], rowIdx[j], tracer);
        }
    }
}

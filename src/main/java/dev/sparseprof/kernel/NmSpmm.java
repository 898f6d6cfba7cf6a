package dev.sparseprof.kernel;

import dev.sparseprof.sparse.CsrMatrix;
import dev.sparseprof.sparse.NmMatrix;
import dev.sparseprof.sparse.stats.NmPattern;
import dev.sparseprof.trace.ArrayRole;
import dev.sparseprof.util.MatrixView;
import dev.sparseprof.util.SparseprofException;
import java.util.Map;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * SpMM over the N:M compressed layout (2:4 by default): row r stores {@code G*N} value slots, slot
 * {@code j} of group {@code g} at column {@code g*M + positions[j]}. Each row's columns are decoded
 * from the metadata into the thread's index scratch (one byte read per slot), then the row runs the
 * broadcast-and-FMA body ({@link BroadcastRows}), at N = 1 the gather dot ({@link GatherRows}); empty
 * slots hold 0.0f and are multiplied, as the hardware does. A matrix with a group of more than N non-zeros cannot be held: bad input.
 *
 * <p>Per SIMD vector (L lanes): per row, per slot 1 metadata byte read and 1 decoded column written
 * to index scratch; then the {@link BroadcastRows} body over all G*N slots (per slot 1 value, 1
 * column, per vector 1 B load + 1 FMA; per row and block the C stores).
 */
public final class NmSpmm extends RowSplitKernel<NmMatrix> {
    /** Metadata bits per group of 2:4 (two 2-bit indices; PTX ISA "Sparse matrix storage"). */
    static final int TWO_FOUR_METADATA_BITS = 4;

    private final NmPattern pattern;

    public NmSpmm(NmPattern pattern) {
        this.pattern = pattern;
        this.chunkBases = chunkBases(pattern);
    }

    @Override public String name() { return pattern.n() + ":" + pattern.m(); }

    @Override
    public NmMatrix prepare(MatrixView matrix) {
        try {
            return NmMatrix.from(CsrMatrix.from(matrix), pattern, TWO_FOUR_METADATA_BITS);
        } catch (SparseprofException e) {
            throw new SparseprofException("format " + name() + " cannot hold this matrix: " + e.getMessage());
        }
    }

    @Override public int rows(NmMatrix a) { return a.rows(); }

    @Override public int cols(NmMatrix a) { return a.cols(); }

    @Override public long storedEntries(NmMatrix a) { return a.values().length; }

    @Override public long formatBytes(NmMatrix a) { return a.values().length * (long) Float.BYTES + a.positions().length; }

    @Override public Map<ArrayRole, Long> arrayBytes(NmMatrix a) {
        return Map.of(ArrayRole.VALUES, a.values().length * (long) Float.BYTES, ArrayRole.METADATA, (long) a.positions().length);
    }

    /**
     * The slots each row starts at ({@code r * G * N}), made once per matrix: every run asks twice
     * (the range, then its whole rows), and a new array each time was 3 KB of heap per call of a
     * 384-row layer, which lands on fresh pages as a young generation grows (see
     * {@link BroadcastRows.Slice}). Published through one volatile field, so threads sharing the
     * matrix read a whole pair.
     */
    @Override
    public int[] rowWork(NmMatrix a) {
        RowWork cached = rowWork;
        if (cached != null && cached.matrix() == a) return cached.starts();
        int perRow = a.groupsPerRow() * pattern.n();
        int[] work = new int[a.rows() + 1];
        for (int r = 0; r < a.rows(); r++) work[r + 1] = work[r] + perRow;
        rowWork = new RowWork(a, work);
        return work;
    }

    /** A matrix and its row starts. */
    private record RowWork(NmMatrix matrix, int[] starts) {}

    /** The last matrix's row starts. */
    private volatile RowWork rowWork;

    @Override boolean rowPointersStored(NmMatrix a) { return false; }

    @Override public int scratchFloats(NmMatrix a, int n) { return BroadcastRows.TRACE_SCRATCH_FLOATS; }

    @Override public int indexScratchInts(NmMatrix a) { return a.groupsPerRow() * pattern.n(); }

    /** Every N but 1, whose gather dot reads B itself. */
    @Override public boolean readsAlignedB(int n) { return n > 1; }

    /**
     * Decodes the columns of slots {@code [from, to)} of row r into the index scratch (from index 0):
     * a slot's column is its group's first column plus its metadata position. The group advances by
     * a count, not by dividing each slot's index by N: N is not a constant the JIT can fold, and an
     * integer division a slot (about 7 clocks on the Zen 4 VM) made 2:4 at N = 16 run 4.5x csr's time
     * on the same non-zeros (docs/calibration.md, "The N:M decode"). Where the vector's lanes hold
     * whole groups ({@link #chunkBases}), a chunk of L slots that starts a group goes at once: L
     * position bytes widened to ints, plus the chunk's group starts, stored as one int vector; the
     * slots before the first group start and after the last whole chunk go one at a time, in the same
     * loop (0.05 against 0.46 ns a slot at 512 bits on the Zen 5 VM, 0.08 at 256; 7 Dec 2026, a
     * throwaway loop over a 2:4 384 x 1536 layer's slots).
     */
    private int[] decode(NmMatrix a, int r, int from, int to, Workspace ws) {
        int[] cols = ws.indexScratch();
        byte[] positions = a.positions();
        int n = pattern.n();
        int m = pattern.m();
        int slot = from - r * a.groupsPerRow() * n; // the row's slot at `from`
        int base = slot / n * m; // its group's first column
        int left = n - slot % n; // slots left in that group
        int step = GatherRows.L / n * m; // the columns a chunk of L slots spans
        for (int j = from, i = 0; j < to; ) {
            if (chunkBases != null && left == n && j + GatherRows.L <= to) { // a chunk of whole groups
                ((IntVector) ByteVector.fromArray(POSITION_BYTES, positions, j).convertShape(VectorOperators.B2I, KernelVectors.INTS, 0))
                        .add(IntVector.fromArray(KernelVectors.INTS, chunkBases, 0)).add(base).intoArray(cols, i);
                j += GatherRows.L;
                i += GatherRows.L;
                base += step;
            } else {
                cols[i++] = base + positions[j++];
                if (--left == 0) {
                    base += m;
                    left = n;
                }
            }
        }
        return cols;
    }

    /** L position bytes, widened to the L int lanes of the decoded columns. */
    private static final VectorSpecies<Byte> POSITION_BYTES = VectorSpecies.of(byte.class, VectorShape.forBitSize(GatherRows.L * Byte.SIZE));

    /**
     * The first column of each lane's group in a chunk of L slots that starts a group, {@code (i / N) * M}
     * for lane i; null where L is not a whole number of groups (3:5), whose slots decode one at a time.
     */
    private final int[] chunkBases;

    private static int[] chunkBases(NmPattern pattern) {
        int lanes = GatherRows.L;
        if (lanes % pattern.n() != 0) return null;
        int[] bases = new int[lanes];
        for (int i = 0; i < lanes; i++) bases[i] = i / pattern.n() * pattern.m();
        return bases;
    }

    @Override
    void row(Operands<NmMatrix> op, int r, int from, int to, Workspace ws) {
        int[] cols = decode(op.a(), r, from, to, ws);
        if (op.n() == 1) {
            output(op, r, ws)[outputOffset(op, r, ws)] = GatherRows.dot(op.a().values(), from, cols, 0, to - from, op.b(), 0);
            return;
        }
        BroadcastRows.compute(op, ws.rowSlice().set(op.a().values(), cols, from, from, to, false), output(op, r, ws), outputOffset(op, r, ws));
    }

    @Override
    void traceRow(Operands<NmMatrix> op, int r, int from, int to, Workspace ws, Tracer tracer) {
        if (to > from) tracer.readMetadataBytes(from, to - from);
        int[] cols = decode(op.a(), r, from, to, ws);
        BroadcastRows.trace(op, new BroadcastRows.Slice(op.a().values(), cols, from, from, to, false),
                output(op, r, ws), outputOffset(op, r, ws), ws.scratch(), tracer);
    }
}

package dev.sparseprof.kernel;

import dev.sparseprof.trace.ArrayRole;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorSpecies;

/**
 * The broadcast-and-FMA row body of the row-split kernels: for one row's entries and each column
 * block of C ({@link ColumnBlocks}), the block's accumulators stay in vector registers across the
 * entries; each entry broadcasts its value and FMAs the matching B row segment, read from the
 * 64-byte aligned copy of B (one cache line per 512-bit load), so no gather instruction is needed.
 *
 * <p>One-vector blocks (N=16, and the tail) would wait on one FMA chain (4 cycles each), so they
 * keep {@link #UNROLL} accumulators, entry {@code from + i} into accumulator {@code i mod 4} (the
 * entries past the last whole group into the first), summed {@code (a0+a1)+(a2+a3)} at the end.
 * The register-blocked bodies for 8, 4, 2 and 1 vectors are written out by hand: the JIT keeps
 * named {@code FloatVector} locals in registers, not the elements of an array of vectors, and a
 * vector passed to a call it does not inline is boxed. The widest block, 8 accumulators, fits the
 * 16 registers of AVX2 with its broadcast and a loaded B vector; at 8 lanes N = 128 is two blocks.
 *
 * <p>What the loops execute per entry (L lanes, for the CPU time model): 1 value load + broadcast
 * and 1 column-index load per entry and block, then per vector of the block 1 aligned B load (one
 * cache line at 512 bits, half a line at 256) and 1 FMA; per row and block the block's vector
 * stores of C (one-vector blocks: 3 vector adds of the 4 accumulators first; two-vector blocks: 2
 * vector adds of the 2 pairs first). N = 128 is one block
 * at 16 lanes, two at 8 lanes (the row's values and indices are read once per block). N = L takes
 * {@link #oneVectorRows}, N = 2L {@link #twoVectorRows} (csr): all rows in one loop, no per-row block
 * dispatch. The blocks of 2 or more vectors read an entry's B segment through one slice of the
 * aligned copy ({@code asSlice(offset, block bytes)}, scalar-replaced by the JIT): one bounds check
 * per entry, after which the block's loads at constant offsets need none. Read at computed offsets
 * of the whole copy, each load kept its own check (an add, a compare and a branch, C2's code for
 * {@code -XX:UseAVX=2}: about 45 instructions per entry and 8-vector block, against 24 with the
 * slice), which at 8 lanes bounded csr by instruction throughput before L2 bandwidth (taken from
 * a stand-alone copy of the 8-vector loop, 3 Dec 2026: 256 bits, 3072x768x128, 90%, 38.7 -> 44.8
 * GFLOP/s, B in L1 49.9 -> 67.3; 512 bits 63.5 -> 65.6). The two-vector blocks (and
 * {@link #twoVectorRows}) then take {@link #PAIR} entries per trip, even entries into one pair of
 * accumulators and odd into another (the last odd entry into the first), summed at the end: with one
 * check per entry, N = 16 at 256 bits waited on its two FMA chains (KernelQuickBench 3072 768 16 1
 * 0.9 csr, two alternated runs, load 3.3: 28.0 / 27.8 -> 30.7 / 32.8 GFLOP/s; 512 bits, N = 32,
 * unchanged). (Before the slice, taking 2 or 4 entries per
 * trip in the 2- and 4-vector blocks, 8 FMA chains instead of 4 or 2, measured no faster at 256 bits,
 * N = 16, or at 512 bits, N = 32 and 64, in three alternated runs on 3 Dec 2026 under load 14-16.)
 */
final class BroadcastRows {
    private static final VectorSpecies<Float> S = KernelVectors.FLOATS;
    static final int L = S.length();
    private static final long VECTOR_BYTES = (long) L * Float.BYTES;
    private static final ByteOrder ORDER = ByteOrder.nativeOrder();
    /** Independent accumulators of the one-vector blocks. */
    static final int UNROLL = 4;
    /** Entries per trip of the two-vector blocks: even entries into one pair of accumulators, odd into another. */
    static final int PAIR = 2;
    /** Floats of scratch the traced twin needs for its accumulators. */
    static final int TRACE_SCRATCH_FLOATS = UNROLL * L;

    /**
     * One row's entries {@code [from, to)}: value {@code j} at {@code values[j - valueShift]}, its
     * column at {@code columns[j - shift]} (shift 0 for stored arrays; {@code from} for what a format
     * decoded into scratch: columns from metadata, fp32 values from fp16/bf16). {@code columnsStored}:
     * the traced twin reads a column index per entry.
     *
     * <p>Mutable: the fast paths {@link #set} their thread's one ({@link Workspace#rowSlice}) for each
     * row rather than allocate one. A new record per row was 40 bytes of heap per row, which C2 did
     * not scalar-replace: the block bodies it is passed to (block8 is 474 bytes of bytecode) are over
     * the inlining limit, so it escaped. The kernel's speed then hung on the heap's state: while the
     * young generation grew into pages never touched before, every 4 KiB of those rows was a page
     * fault (3.8 per call of a 384-row layer), and on the Zen 4 VM csr and coo ran up to 3x slower
     * for seconds at a time (docs/kernels.md, "Allocation-free row bodies"). The traced twins still
     * take new ones.
     */
    static final class Slice {
        private float[] values;
        private int valueShift;
        private int[] columns;
        private int shift;
        private int from;
        private int to;
        private boolean columnsStored;

        /** An empty slice, to be {@link #set} before use. */
        Slice() {}

        Slice(float[] values, int valueShift, int[] columns, int shift, int from, int to, boolean columnsStored) {
            set(values, valueShift, columns, shift, from, to, columnsStored);
        }

        /** Stored fp32 values, stored or decoded columns. */
        Slice(float[] values, int[] columns, int shift, int from, int to, boolean columnsStored) {
            this(values, 0, columns, shift, from, to, columnsStored);
        }

        /** Points this slice at another row's entries; returns it. */
        Slice set(float[] values, int valueShift, int[] columns, int shift, int from, int to, boolean columnsStored) {
            this.values = values;
            this.valueShift = valueShift;
            this.columns = columns;
            this.shift = shift;
            this.from = from;
            this.to = to;
            this.columnsStored = columnsStored;
            return this;
        }

        /** Stored fp32 values, stored or decoded columns. */
        Slice set(float[] values, int[] columns, int shift, int from, int to, boolean columnsStored) {
            return set(values, 0, columns, shift, from, to, columnsStored);
        }

        float[] values() { return values; }

        int valueShift() { return valueShift; }

        int[] columns() { return columns; }

        int shift() { return shift; }

        int from() { return from; }

        int to() { return to; }

        boolean columnsStored() { return columnsStored; }
    }

    private BroadcastRows() {}

    static void compute(Operands<?> op, Slice s, float[] out, int outOffset) {
        compute(op, s, out, outOffset, 0, op.n());
    }

    /**
     * The row's columns {@code [colStart, colEnd)}, cut into blocks as {@link ColumnBlocks} cuts
     * {@code colEnd - colStart} columns (one column pass of csr's, {@link CsrSpmm}).
     */
    static void compute(Operands<?> op, Slice s, float[] out, int outOffset, int colStart, int colEnd) {
        for (int c0 = colStart; c0 < colEnd; ) {
            switch (ColumnBlocks.vectors(colEnd - c0, L)) {
                case 8 -> block8(op, s, c0, out, outOffset + c0);
                case 4 -> block4(op, s, c0, out, outOffset + c0);
                case 2 -> block2(op, s, c0, out, outOffset + c0);
                case 1 -> block1(op, s, c0, out, outOffset + c0);
                default -> blockMasked(op, s, c0, colEnd - c0, out, outOffset + c0);
            }
            c0 += ColumnBlocks.width(colEnd - c0, L);
        }
    }

    /** The whole row in column passes of {@code passColumns} (the last one may be narrower), one after the other. */
    static void computePasses(Operands<?> op, Slice s, float[] out, int outOffset, int passColumns) {
        int n = op.n();
        for (int p0 = 0; p0 < n; p0 += passColumns) compute(op, s, out, outOffset, p0, Math.min(n, p0 + passColumns));
    }

    /**
     * Where the traced twin reads B: element (row, column c) at {@code values[base + row * stride + c - firstColumn]},
     * pushed as a read of B ({@code packed} false: the heap B itself) or of the scratch (a packed panel of B).
     */
    record BRows(float[] values, int base, int stride, int firstColumn, boolean packed) {
        /** The heap B of the call. */
        static BRows of(Operands<?> op) {
            return new BRows(op.b(), 0, op.n(), 0, false);
        }
    }

    /** The traced twin of {@link #computePasses}, reading the heap B. */
    static void tracePasses(Operands<?> op, Slice s, float[] out, int outOffset, float[] acc, Tracer tracer, int passColumns) {
        int n = op.n();
        for (int p0 = 0; p0 < n; p0 += passColumns) trace(op, s, out, outOffset, acc, tracer, p0, Math.min(n, p0 + passColumns), BRows.of(op));
    }

    /** The traced twin of {@link #compute}; {@code acc} holds {@link #TRACE_SCRATCH_FLOATS} floats. */
    static void trace(Operands<?> op, Slice s, float[] out, int outOffset, float[] acc, Tracer tracer) {
        trace(op, s, out, outOffset, acc, tracer, 0, op.n(), BRows.of(op));
    }

    /** The traced twin of {@link #compute(Operands, Slice, float[], int, int, int)}, B read from {@code src}. */
    static void trace(Operands<?> op, Slice s, float[] out, int outOffset, float[] acc, Tracer tracer, int colStart, int colEnd, BRows src) {
        boolean toCarry = out != op.c();
        float[] vals = s.values();
        int[] cols = s.columns();
        float[] b = src.values();
        int from = s.from();
        int to = s.to();
        int vshift = s.valueShift();
        for (int c0 = colStart; c0 < colEnd; ) {
            int width = ColumnBlocks.width(colEnd - c0, L);
            int o = outOffset + c0;
            int unroll = width <= L ? UNROLL : width == 2 * L ? PAIR : 1;
            int grouped = unroll == 1 ? 0 : (to - from) / unroll * unroll;
            float[] sums = unroll == 1 ? out : acc;
            int at0 = unroll == 1 ? o : 0;
            for (int i = 0; i < unroll * width; i++) sums[at0 + i] = 0f;
            for (int j = from; j < to; j++) {
                tracer.readValues(j, 1);
                if (s.columnsStored()) tracer.readIndices(ArrayRole.COLUMN_INDICES, j, 1);
                float value = vals[j - vshift];
                int bRow = src.base() + cols[j - s.shift()] * src.stride() + c0 - src.firstColumn();
                int at = at0 + (j - from < grouped ? (j - from) % unroll : 0) * width;
                for (int v0 = 0; v0 < width; v0 += L) {
                    int lanes = Math.min(L, width - v0);
                    if (src.packed()) tracer.readScratch(ArrayRole.B_GATHER, bRow + v0, lanes);
                    else tracer.readFloats(ArrayRole.B_GATHER, bRow + v0, lanes);
                    for (int i = v0; i < v0 + lanes; i++) sums[at + i] = Math.fma(b[bRow + i], value, sums[at + i]);
                }
            }
            if (unroll == UNROLL) {
                for (int i = 0; i < width; i++) {
                    out[o + i] = (acc[i] + acc[width + i]) + (acc[2 * width + i] + acc[3 * width + i]);
                }
            } else if (unroll == PAIR) {
                for (int i = 0; i < width; i++) out[o + i] = acc[i] + acc[width + i];
            }
            for (int v0 = 0; v0 < width; v0 += L) {
                int lanes = Math.min(L, width - v0);
                if (toCarry) tracer.writeCarry(c0 + v0, lanes);
                else tracer.writeFloats(ArrayRole.C_SCATTER, o + v0, lanes);
            }
            c0 += width;
        }
    }

    /**
     * Rows {@code [rowStart, rowEnd)} of a row-slice format when N is exactly one vector: the
     * {@link #block1} loop for each row, in one method (short rows would spend as long in the
     * per-row dispatch as in their entries). The first row starts at {@code nzStart} at the earliest.
     */
    static void oneVectorRows(Operands<?> op, float[] vals, int[] cols, int[] starts, int rowStart, int rowEnd, int nzStart) {
        oneVectorRows(op.bAligned(), op.c(), L, 0, vals, cols, starts, rowStart, rowEnd, nzStart);
    }

    /**
     * {@link #oneVectorRows} over B rows of one vector in {@code b} (the aligned B when N is one
     * vector, or csr's packed panel of one column pass), into C rows of {@code cStride} floats from
     * column {@code cColumn}.
     */
    static void oneVectorRows(MemorySegment b, float[] c, int cStride, int cColumn, float[] vals, int[] cols, int[] starts,
                              int rowStart, int rowEnd, int nzStart) {
        long rowBytes = (long) L * Float.BYTES;
        for (int r = rowStart; r < rowEnd; r++) {
            int from = Math.max(starts[r], nzStart);
            int to = starts[r + 1];
            FloatVector a0 = FloatVector.zero(S), a1 = a0, a2 = a0, a3 = a0;
            int j = from;
            for (int grouped = from + (to - from) / UNROLL * UNROLL; j < grouped; j += UNROLL) {
                a0 = FloatVector.fromMemorySegment(S, b, cols[j] * rowBytes, ORDER).fma(FloatVector.broadcast(S, vals[j]), a0);
                a1 = FloatVector.fromMemorySegment(S, b, cols[j + 1] * rowBytes, ORDER).fma(FloatVector.broadcast(S, vals[j + 1]), a1);
                a2 = FloatVector.fromMemorySegment(S, b, cols[j + 2] * rowBytes, ORDER).fma(FloatVector.broadcast(S, vals[j + 2]), a2);
                a3 = FloatVector.fromMemorySegment(S, b, cols[j + 3] * rowBytes, ORDER).fma(FloatVector.broadcast(S, vals[j + 3]), a3);
            }
            for (; j < to; j++) a0 = FloatVector.fromMemorySegment(S, b, cols[j] * rowBytes, ORDER).fma(FloatVector.broadcast(S, vals[j]), a0);
            a0.add(a1).add(a2.add(a3)).intoArray(c, r * cStride + cColumn);
        }
    }

    /**
     * Rows {@code [rowStart, rowEnd)} when N is exactly two vectors (16 at 256 bits, 32 at 512): the
     * {@link #block2} loop for each row, in one method, as {@link #oneVectorRows} for one vector;
     * the same operations in the same order as {@link #block2}, so the traced twin is unchanged.
     */
    static void twoVectorRows(Operands<?> op, float[] vals, int[] cols, int[] starts, int rowStart, int rowEnd, int nzStart) {
        twoVectorRows(op.bAligned(), op.c(), 2 * L, 0, vals, cols, starts, rowStart, rowEnd, nzStart);
    }

    /** {@link #twoVectorRows} over B rows of two vectors in {@code b}, into C rows of {@code cStride} floats from column {@code cColumn}. */
    static void twoVectorRows(MemorySegment b, float[] c, int cStride, int cColumn, float[] vals, int[] cols, int[] starts,
                              int rowStart, int rowEnd, int nzStart) {
        long rowBytes = 2L * L * Float.BYTES;
        for (int r = rowStart; r < rowEnd; r++) {
            FloatVector a0 = FloatVector.zero(S), a1 = a0, a2 = a0, a3 = a0;
            int j = Math.max(starts[r], nzStart);
            int to = starts[r + 1];
            for (int paired = j + (to - j) / PAIR * PAIR; j < paired; j += PAIR) {
                FloatVector v = FloatVector.broadcast(S, vals[j]);
                FloatVector w = FloatVector.broadcast(S, vals[j + 1]);
                MemorySegment row = b.asSlice(cols[j] * rowBytes, rowBytes);
                MemorySegment next = b.asSlice(cols[j + 1] * rowBytes, rowBytes);
                a0 = FloatVector.fromMemorySegment(S, row, 0, ORDER).fma(v, a0);
                a1 = FloatVector.fromMemorySegment(S, row, VECTOR_BYTES, ORDER).fma(v, a1);
                a2 = FloatVector.fromMemorySegment(S, next, 0, ORDER).fma(w, a2);
                a3 = FloatVector.fromMemorySegment(S, next, VECTOR_BYTES, ORDER).fma(w, a3);
            }
            if (j < to) {
                FloatVector v = FloatVector.broadcast(S, vals[j]);
                MemorySegment row = b.asSlice(cols[j] * rowBytes, rowBytes);
                a0 = FloatVector.fromMemorySegment(S, row, 0, ORDER).fma(v, a0);
                a1 = FloatVector.fromMemorySegment(S, row, VECTOR_BYTES, ORDER).fma(v, a1);
            }
            a0.add(a2).intoArray(c, r * cStride + cColumn);
            a1.add(a3).intoArray(c, r * cStride + cColumn + L);
        }
    }

    private static void block8(Operands<?> op, Slice s, int c0, float[] out, int o) {
        float[] vals = s.values();
        int[] cols = s.columns();
        int shift = s.shift();
        int vshift = s.valueShift();
        int from = s.from();
        int to = s.to();
        MemorySegment b = op.bAligned();
        long rowBytes = (long) op.n() * Float.BYTES;
        long colBytes = (long) c0 * Float.BYTES;
        FloatVector a0 = FloatVector.zero(S), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0;
        for (int j = from; j < to; j++) {
            FloatVector v = FloatVector.broadcast(S, vals[j - vshift]);
            MemorySegment row = b.asSlice(cols[j - shift] * rowBytes + colBytes, 8 * VECTOR_BYTES);
            a0 = FloatVector.fromMemorySegment(S, row, 0, ORDER).fma(v, a0);
            a1 = FloatVector.fromMemorySegment(S, row, VECTOR_BYTES, ORDER).fma(v, a1);
            a2 = FloatVector.fromMemorySegment(S, row, 2 * VECTOR_BYTES, ORDER).fma(v, a2);
            a3 = FloatVector.fromMemorySegment(S, row, 3 * VECTOR_BYTES, ORDER).fma(v, a3);
            a4 = FloatVector.fromMemorySegment(S, row, 4 * VECTOR_BYTES, ORDER).fma(v, a4);
            a5 = FloatVector.fromMemorySegment(S, row, 5 * VECTOR_BYTES, ORDER).fma(v, a5);
            a6 = FloatVector.fromMemorySegment(S, row, 6 * VECTOR_BYTES, ORDER).fma(v, a6);
            a7 = FloatVector.fromMemorySegment(S, row, 7 * VECTOR_BYTES, ORDER).fma(v, a7);
        }
        a0.intoArray(out, o);
        a1.intoArray(out, o + L);
        a2.intoArray(out, o + 2 * L);
        a3.intoArray(out, o + 3 * L);
        a4.intoArray(out, o + 4 * L);
        a5.intoArray(out, o + 5 * L);
        a6.intoArray(out, o + 6 * L);
        a7.intoArray(out, o + 7 * L);
    }

    private static void block4(Operands<?> op, Slice s, int c0, float[] out, int o) {
        float[] vals = s.values();
        int[] cols = s.columns();
        int shift = s.shift();
        int vshift = s.valueShift();
        int from = s.from();
        int to = s.to();
        MemorySegment b = op.bAligned();
        long rowBytes = (long) op.n() * Float.BYTES;
        long colBytes = (long) c0 * Float.BYTES;
        FloatVector a0 = FloatVector.zero(S), a1 = a0, a2 = a0, a3 = a0;
        for (int j = from; j < to; j++) {
            FloatVector v = FloatVector.broadcast(S, vals[j - vshift]);
            MemorySegment row = b.asSlice(cols[j - shift] * rowBytes + colBytes, 4 * VECTOR_BYTES);
            a0 = FloatVector.fromMemorySegment(S, row, 0, ORDER).fma(v, a0);
            a1 = FloatVector.fromMemorySegment(S, row, VECTOR_BYTES, ORDER).fma(v, a1);
            a2 = FloatVector.fromMemorySegment(S, row, 2 * VECTOR_BYTES, ORDER).fma(v, a2);
            a3 = FloatVector.fromMemorySegment(S, row, 3 * VECTOR_BYTES, ORDER).fma(v, a3);
        }
        a0.intoArray(out, o);
        a1.intoArray(out, o + L);
        a2.intoArray(out, o + 2 * L);
        a3.intoArray(out, o + 3 * L);
    }

    private static void block2(Operands<?> op, Slice s, int c0, float[] out, int o) {
        float[] vals = s.values();
        int[] cols = s.columns();
        int shift = s.shift();
        int vshift = s.valueShift();
        int from = s.from();
        int to = s.to();
        MemorySegment b = op.bAligned();
        long rowBytes = (long) op.n() * Float.BYTES;
        long colBytes = (long) c0 * Float.BYTES;
        FloatVector a0 = FloatVector.zero(S), a1 = a0, a2 = a0, a3 = a0;
        int j = from;
        for (int paired = from + (to - from) / PAIR * PAIR; j < paired; j += PAIR) {
            FloatVector v = FloatVector.broadcast(S, vals[j - vshift]);
            FloatVector w = FloatVector.broadcast(S, vals[j + 1 - vshift]);
            MemorySegment row = b.asSlice(cols[j - shift] * rowBytes + colBytes, 2 * VECTOR_BYTES);
            MemorySegment next = b.asSlice(cols[j + 1 - shift] * rowBytes + colBytes, 2 * VECTOR_BYTES);
            a0 = FloatVector.fromMemorySegment(S, row, 0, ORDER).fma(v, a0);
            a1 = FloatVector.fromMemorySegment(S, row, VECTOR_BYTES, ORDER).fma(v, a1);
            a2 = FloatVector.fromMemorySegment(S, next, 0, ORDER).fma(w, a2);
            a3 = FloatVector.fromMemorySegment(S, next, VECTOR_BYTES, ORDER).fma(w, a3);
        }
        if (j < to) {
            FloatVector v = FloatVector.broadcast(S, vals[j - vshift]);
            MemorySegment row = b.asSlice(cols[j - shift] * rowBytes + colBytes, 2 * VECTOR_BYTES);
            a0 = FloatVector.fromMemorySegment(S, row, 0, ORDER).fma(v, a0);
            a1 = FloatVector.fromMemorySegment(S, row, VECTOR_BYTES, ORDER).fma(v, a1);
        }
        a0.add(a2).intoArray(out, o);
        a1.add(a3).intoArray(out, o + L);
    }

    private static void block1(Operands<?> op, Slice s, int c0, float[] out, int o) {
        float[] vals = s.values();
        int[] cols = s.columns();
        int shift = s.shift();
        int vshift = s.valueShift();
        int from = s.from();
        int to = s.to();
        MemorySegment b = op.bAligned();
        long rowBytes = (long) op.n() * Float.BYTES;
        long colBytes = (long) c0 * Float.BYTES;
        FloatVector a0 = FloatVector.zero(S), a1 = a0, a2 = a0, a3 = a0;
        int j = from;
        for (int grouped = from + (to - from) / UNROLL * UNROLL; j < grouped; j += UNROLL) {
            a0 = FloatVector.fromMemorySegment(S, b, cols[j - shift] * rowBytes + colBytes, ORDER).fma(FloatVector.broadcast(S, vals[j - vshift]), a0);
            a1 = FloatVector.fromMemorySegment(S, b, cols[j + 1 - shift] * rowBytes + colBytes, ORDER).fma(FloatVector.broadcast(S, vals[j + 1 - vshift]), a1);
            a2 = FloatVector.fromMemorySegment(S, b, cols[j + 2 - shift] * rowBytes + colBytes, ORDER).fma(FloatVector.broadcast(S, vals[j + 2 - vshift]), a2);
            a3 = FloatVector.fromMemorySegment(S, b, cols[j + 3 - shift] * rowBytes + colBytes, ORDER).fma(FloatVector.broadcast(S, vals[j + 3 - vshift]), a3);
        }
        for (; j < to; j++) a0 = FloatVector.fromMemorySegment(S, b, cols[j - shift] * rowBytes + colBytes, ORDER).fma(FloatVector.broadcast(S, vals[j - vshift]), a0);
        a0.add(a1).add(a2.add(a3)).intoArray(out, o);
    }

    /**
     * The last {@code columns < L} columns of a row or column pass, masked. It reads the heap B: masked loads from a
     * memory segment are not intrinsified (they run 20x slower), masked array loads are.
     */
    private static void blockMasked(Operands<?> op, Slice s, int c0, int columns, float[] out, int o) {
        float[] vals = s.values();
        int[] cols = s.columns();
        int shift = s.shift();
        int vshift = s.valueShift();
        int from = s.from();
        int to = s.to();
        float[] b = op.b();
        int n = op.n();
        VectorMask<Float> m = S.indexInRange(0, columns);
        FloatVector a0 = FloatVector.zero(S), a1 = a0, a2 = a0, a3 = a0;
        int j = from;
        for (int grouped = from + (to - from) / UNROLL * UNROLL; j < grouped; j += UNROLL) {
            a0 = FloatVector.fromArray(S, b, cols[j - shift] * n + c0, m).fma(FloatVector.broadcast(S, vals[j - vshift]), a0);
            a1 = FloatVector.fromArray(S, b, cols[j + 1 - shift] * n + c0, m).fma(FloatVector.broadcast(S, vals[j + 1 - vshift]), a1);
            a2 = FloatVector.fromArray(S, b, cols[j + 2 - shift] * n + c0, m).fma(FloatVector.broadcast(S, vals[j + 2 - vshift]), a2);
            a3 = FloatVector.fromArray(S, b, cols[j + 3 - shift] * n + c0, m).fma(FloatVector.broadcast(S, vals[j + 3 - vshift]), a3);
        }
        for (; j < to; j++) a0 = FloatVector.fromArray(S, b, cols[j - shift] * n + c0, m).fma(FloatVector.broadcast(S, vals[j - vshift]), a0);
        a0.add(a1).add(a2.add(a3)).intoArray(out, o, m);
    }
}

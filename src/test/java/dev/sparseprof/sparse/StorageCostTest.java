package dev.sparseprof.sparse;

import dev.sparseprof.sparse.stats.BlockShape;
import dev.sparseprof.sparse.stats.MatrixScan;
import dev.sparseprof.sparse.stats.MatrixStats;
import dev.sparseprof.sparse.stats.NmPattern;
import dev.sparseprof.sparse.stats.ScanOptions;
import dev.sparseprof.util.DType;
import dev.sparseprof.util.SparseprofException;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Hand-checked byte counts, index widths, and the registry's names and errors. */
class StorageCostTest {
    // 4 x 8, rows of length 3, 0, 8, 1 (nnz 12); 2:4-compliant only in row 1 and 3
    static final float[] A = {
        1, 0, 2, 0, 0, 0, 3, 0,
        0, 0, 0, 0, 0, 0, 0, 0,
        1, 2, 3, 4, 5, 6, 7, 8,
        0, 0, 0, 0, 0, 0, 0, 9};

    static StorageCost cost(String format, DType dtype) {
        return Formats.parse(format).build(CsrMatrix.fromDense(4, 8, A)).storage(dtype);
    }

    @Test
    void handCheckedBytes() {
        // csr fp32: 12 values * 4, 12 u16 column indices, 5 u16 row pointers
        assertBytes(cost("csr", DType.F32), 48, 24, 10, 0);
        assertBytes(cost("csc", DType.F16), 24, 24, 18, 0);
        assertBytes(cost("coo", DType.I8), 12, 48, 0, 0);
        // bsr4x4: both 4x4 blocks non-empty (32 slots, 20 zero fill), 2 u16 block indices, 2 u16 pointers
        assertBytes(cost("bsr4x4", DType.F32), 48, 4, 4, 80);
        // ell: width 8, 32 slots, 20 padding of (4 + 2) bytes
        assertBytes(cost("ell", DType.F32), 48, 24, 0, 120);
        // sell-2-4: sorted rows 2, 0, 3, 1 -> chunk widths 8 and 1 -> 18 slots; 3 u16 chunk pointers + 4 u16 perm
        assertBytes(cost("sell-2-4", DType.F32), 48, 24, 14, 6 * 6);
        // sell-2-1: chunks (3, 0) and (8, 1) -> widths 3, 8 -> 22 slots; no permutation
        assertBytes(cost("sell-2-1", DType.F32), 48, 24, 6, 10 * 6);
        // bitmask: one word per row
        assertBytes(cost("bitmask", DType.F16), 24, 0, 32, 0);
        StorageCost csr = cost("csr", DType.F32);
        assertEquals(128, csr.denseBytes());
        assertEquals(82, csr.totalBytes());
        assertEquals(128.0 / 82, csr.compressionRatio(), 1e-12);
    }

    @Test
    void ampereLayoutsCountFourBitsPerGroup() {
        float[] half = {1, 0, 2, 0, 0, 3, 0, 4, 0, 0, 0, 0, 5, 0, 0, 0};
        // 2 rows x 8: 4 groups of 4, 8 slots, 5 non-zeros, 4 groups * 4 bits = 2 bytes
        StorageCost fp16 = Formats.parse("2:4").build(CsrMatrix.fromDense(2, 8, half)).storage(DType.F16);
        assertBytes(fp16, 10, 0, 2, 6);
        // fp16 dense 4 elements = 8 B -> 4 B values + 0.5 B metadata (hardware-facts.md §2: 56.25 %)
        float[] full = {1, 0, 2, 0};
        StorageCost one = Formats.parse("2:4").build(CsrMatrix.fromDense(1, 4, full)).storage(DType.F16);
        assertEquals(4, one.valueBytes() + one.paddingBytes());
        assertEquals(1, one.metadataBytes());
        float[] tf32 = {1, 0, 0, 2, 3, 0};
        StorageCost t = Formats.parse("1:2").build(CsrMatrix.fromDense(1, 6, tf32)).storage(DType.TF32);
        assertBytes(t, 12, 0, 2, 0);
        assertEquals("1:2", Formats.ampereFor(DType.F32).name());
        assertEquals("2:4", Formats.ampereFor(DType.BF16).name());
    }

    @Test
    void nonCompliantMatricesAreRefusedByName() {
        CsrMatrix a = CsrMatrix.fromDense(4, 8, A);
        SparseprofException e = assertThrows(SparseprofException.class, () -> Formats.parse("2:4").build(a));
        assertEquals("not 2:4: row 2 group 0 has 4 non-zeros", e.getMessage());
        MatrixStats stats = MatrixScan.of(4, 8, A);
        assertFalse(Formats.parse("2:4").canHold(stats));
        assertTrue(Formats.parse("csr").canHold(stats));
        assertThrows(SparseprofException.class, () -> StorageCost.of("2:4", stats, DType.F16));
        assertThrows(SparseprofException.class, () -> StorageCost.of("bsr2x2", stats, DType.F16));
        assertEquals(48, StorageCost.of("csr", stats, DType.F32).valueBytes());
    }

    @Test
    void ninetyPercentSparsityWithInt32IndicesIsFiveTimes() {
        // the seed's point: 4-byte values + 4-byte indices per non-zero at 10 % density -> 0.8 B per element
        int rows = 70000;
        int cols = 70000;
        long nnz = (long) rows * cols / 10;
        StorageCost csr = CsrMatrix.storage(rows, cols, nnz, DType.F32);
        assertEquals(4, csr.indexBytes() / nnz);
        assertEquals(5.0, csr.compressionRatio(), 0.01);
    }

    @Test
    void indexWidthsAreUnsigned16BitUpTo65536() {
        assertEquals(IndexWidth.U16, IndexWidth.forExtent(65536));
        assertEquals(IndexWidth.I32, IndexWidth.forExtent(65537));
        assertEquals(IndexWidth.U16, IndexWidth.forExtent(0));
        assertEquals(IndexWidth.U16, IndexWidth.forMaxValue(65535));
        assertEquals(IndexWidth.I32, IndexWidth.forMaxValue(65536));
        assertEquals(IndexWidth.I64, IndexWidth.forMaxValue(1L << 31));
        assertEquals(4, CsrMatrix.storage(10, 10, 65536, DType.F32).metadataBytes() / 11);
    }

    @Test
    void registryParsesNamesAndListsThemInErrors() {
        assertEquals(new Format.Bsr(new BlockShape(2, 8)), Formats.parse("BSR2x8"));
        assertEquals(new Format.Sell(32, 256), Formats.parse(" sell-32-256 "));
        assertEquals(10, Formats.defaults().size());
        SparseprofException e = assertThrows(SparseprofException.class, () -> Formats.parse("csx"));
        assertEquals("unknown format 'csx' (known: csr, csc, coo, ell, 2:4, 1:2, bitmask, bsrRxC (e.g. bsr4x4), "
                + "sell-C-sigma (e.g. sell-32-256))", e.getMessage());
        assertThrows(SparseprofException.class, () -> Formats.parse("bsr0x4"));
        assertThrows(SparseprofException.class, () -> Formats.parse("sell-0-1"));
        assertThrows(SparseprofException.class, () -> Formats.parse("bsr99999999x4"));
        assertEquals(3, Formats.parseList("csr, 2:4,bsr4x4").size());
        ScanOptions o = Formats.scanOptionsFor(Formats.parseList("bsr2x8,bsr4x4,1:2"),
                ScanOptions.DEFAULT);
        assertEquals(4, o.blocks().size());
        assertEquals(3, o.patterns().size());
    }

    @Test
    void constructorsRejectBrokenInvariants() {
        assertThrows(SparseprofException.class, () -> new CsrMatrix(2, 2, new int[] {0, 2, 1}, new int[] {0, 1}, new float[] {1, 1}));
        assertThrows(SparseprofException.class, () -> new CooMatrix(2, 2, new int[] {1, 0}, new int[] {0, 0}, new float[] {1, 1}));
        assertThrows(SparseprofException.class, () -> new EllMatrix(1, 3, 2, new int[] {0, 2}, new float[] {0, 1}));
        assertThrows(SparseprofException.class, () -> new BitmaskMatrix(1, 3, new long[] {0b1001}, new float[] {1, 2}));
        assertThrows(SparseprofException.class, () -> new BsrMatrix(1, 1, new BlockShape(2, 2), new int[] {0, 1}, new int[] {0},
                new float[] {1, 5, 0, 0}));
        assertThrows(SparseprofException.class, () -> new SellMatrix(2, 2, 2, 1, new int[] {1, 0}, new int[] {0, 2},
                new int[] {0, 1}, new float[] {1, 1}));
        assertThrows(SparseprofException.class, () -> new NmMatrix(1, 4, new NmPattern(2, 4), 4,
                new float[] {1, 2}, new byte[] {2, 1}));
    }

    static void assertBytes(StorageCost c, long values, long index, long metadata, long padding) {
        assertEquals(values, c.valueBytes(), c.format() + " values");
        assertEquals(index, c.indexBytes(), c.format() + " index");
        assertEquals(metadata, c.metadataBytes(), c.format() + " metadata");
        assertEquals(padding, c.paddingBytes(), c.format() + " padding");
    }
}

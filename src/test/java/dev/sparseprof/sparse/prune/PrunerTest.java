package dev.sparseprof.sparse.prune;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.sparse.stats.BlockShape;
import dev.sparseprof.sparse.stats.MatrixScan;
import dev.sparseprof.sparse.stats.MatrixStats;
import dev.sparseprof.sparse.stats.NmPattern;
import dev.sparseprof.sparse.stats.ScanOptions;
import dev.sparseprof.util.MatrixView;
import dev.sparseprof.util.SparseprofException;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class PrunerTest {
    static LayerWeights layer(String name, int rows, int cols, long seed) {
        Random rnd = new Random(seed);
        float[] a = new float[rows * cols];
        // few distinct magnitudes, both signs: many ties
        for (int i = 0; i < a.length; i++) a[i] = (rnd.nextInt(41) - 20) / 4.0f + (rnd.nextBoolean() ? 0.0f : 0.125f);
        for (int i = 0; i < a.length; i++) if (a[i] == 0f) a[i] = 0.5f;
        return new LayerWeights(name, rows, cols, a);
    }

    static List<PruneResult> prune(String options, LayerWeights... layers) {
        return Pruner.apply(PruneSpec.parse(options), List.of(layers));
    }

    @ParameterizedTest
    @CsvSource({"0.0,1073", "0.29,762", "0.5,537", "0.9,108", "0.999,2", "1.0,0"})
    void magnitudePerLayerKeepsExactlyTheRuleCount(double sparsity, long kept) {
        // n = 37 * 29 = 1073 non-zero weights; kept = n - floor(S * n), worked out by hand
        LayerWeights w = layer("w", 37, 29, 1);
        List<PruneResult> r = Pruner.apply(new PruneSpec.Magnitude(sparsity, PruneScope.LAYER), List.of(w));
        assertEquals(1073, r.get(0).nonZerosBefore());
        assertEquals(kept, r.get(0).nonZerosAfter());
    }

    @Test
    void decimalSparsityIsExact() {
        // 0.29 * 100 is 28.999999999999996 in binary floating point; the rule wants 29 pruned
        LayerWeights w = layer("w", 10, 10, 2);
        assertEquals(71, prune("--sparsity 0.29", w).get(0).nonZerosAfter());
    }

    @Test
    void magnitudeKeepsTheLargestAndBreaksTiesByIndex() {
        float[] a = {1, -3, 2, 3, -1, 2, 3, 0.5f};
        LayerWeights w = new LayerWeights("w", 2, 4, a);
        prune("--sparsity 0.5", w);
        // |3| x3 kept, then of the two |2| the lower index (2) kept
        assertArrayEquals(new float[] {0, -3, 2, 3, 0, 0, 3, 0}, a);
    }

    @Test
    void pruningIsDeterministic() {
        for (String options : List.of("--sparsity 0.7", "--nm 2:4", "--block 4x4 --sparsity 0.6", "--rows 0.3")) {
            LayerWeights a = layer("a", 33, 45, 3);
            LayerWeights b = layer("a", 33, 45, 3);
            prune(options, a);
            prune(options, b);
            assertArrayEquals(a.values(), b.values(), options);
        }
    }

    @Test
    void globalRanksAllLayersTogether() {
        LayerWeights small = new LayerWeights("small", 4, 4, scaled(layer("s", 4, 4, 4).values(), 0.01f));
        LayerWeights big = layer("big", 8, 8, 5);
        List<PruneResult> global = prune("--sparsity 0.5 --scope global", small, big);
        assertEquals(80 - 40, global.get(0).nonZerosAfter() + global.get(1).nonZerosAfter());
        assertEquals(0, global.get(0).nonZerosAfter(), "the small layer loses everything when ranked globally");
        LayerWeights small2 = new LayerWeights("small", 4, 4, scaled(layer("s", 4, 4, 4).values(), 0.01f));
        LayerWeights big2 = layer("big", 8, 8, 5);
        List<PruneResult> perLayer = prune("--sparsity 0.5 --scope layer", small2, big2);
        assertEquals(8, perLayer.get(0).nonZerosAfter());
        assertEquals(32, perLayer.get(1).nonZerosAfter());
        assertNotEquals(global, perLayer);
    }

    @Test
    void globalTotalIsExactOnOddSizes() {
        LayerWeights a = layer("a", 7, 13, 6);
        LayerWeights b = layer("b", 11, 3, 7);
        List<PruneResult> r = prune("--sparsity 0.37 --scope global", a, b);
        long total = 91 + 33;
        assertEquals(total - 45, r.get(0).nonZerosAfter() + r.get(1).nonZerosAfter()); // floor(0.37*124) = 45
    }

    @ParameterizedTest
    @ValueSource(strings = {"2:4", "1:2", "4:8", "3:5", "1:16"})
    void nmPruningGivesFullCompliance(String pattern) {
        NmPattern p = NmPattern.parse(pattern);
        LayerWeights w = layer("w", 9, 43, 8);
        prune("--nm " + pattern, w);
        MatrixStats s = MatrixScan.of(MatrixView.of(9, 43, w.values()), new ScanOptions(List.of(p), List.of(), false, 1));
        assertEquals(1.0, s.nm(p).fraction());
        // every full group kept exactly N (no zeros before), the partial last group min(N, width)
        long perRow = (43 / p.m()) * p.n() + Math.min(p.n(), 43 % p.m());
        assertEquals(9 * perRow, s.nnz());
    }

    @Test
    void nmKeepsTheLargestOfEachGroup() {
        float[] a = {0.1f, -5, 3, 3, 1, 2, 0, 0, 7};
        prune("--nm 2:4", new LayerWeights("w", 1, 9, a));
        assertArrayEquals(new float[] {0, -5, 3, 0, 1, 2, 0, 0, 7}, a);
    }

    @Test
    void blockPruningLeavesWholeBlocks() {
        LayerWeights w = layer("w", 18, 21, 9);
        BlockShape shape = new BlockShape(4, 4);
        prune("--block 4x4 --sparsity 0.6", w);
        int blocks = 5 * 6;
        int kept = 0;
        for (int br = 0; br < 5; br++) {
            for (int bc = 0; bc < 6; bc++) {
                int nz = 0;
                int area = 0;
                for (int r = br * 4; r < Math.min(18, br * 4 + 4); r++) {
                    for (int c = bc * 4; c < Math.min(21, bc * 4 + 4); c++) {
                        area++;
                        if (w.values()[r * 21 + c] != 0f) nz++;
                    }
                }
                assertTrue(nz == 0 || nz == area, "block " + br + "," + bc + " is whole or gone");
                if (nz > 0) kept++;
            }
        }
        assertEquals(blocks - 18, kept);
        MatrixStats s = MatrixScan.of(MatrixView.of(18, 21, w.values()), ScanOptions.DEFAULT.withBlocks(List.of(shape)));
        assertEquals(kept, s.blocks(shape).nonEmptyBlocks());
        assertEquals(1.0, s.blocks(shape).meanFill());
    }

    @Test
    void rowPruningDropsTheWeakestRows() {
        float[] a = {1, 1, 5, 5, 0.5f, 0.5f, 3, 0};
        List<PruneResult> r = prune("--rows 0.5", new LayerWeights("w", 4, 2, a));
        assertArrayEquals(new float[] {0, 0, 5, 5, 0, 0, 3, 0}, a);
        assertEquals(3, r.get(0).nonZerosAfter());
    }

    @Test
    void specsDescribeThemselvesAsTheirOptions() {
        for (String options : List.of("--sparsity 0.9 --scope layer", "--sparsity 0.5 --scope global", "--nm 2:4",
                "--block 4x8 --sparsity 0.75", "--rows 0.25")) {
            assertEquals(options, PruneSpec.parse(options).describe());
        }
        assertEquals("--sparsity 0.9 --scope layer", PruneSpec.parse("--sparsity 0.9").describe());
        assertEquals(new PruneSpec.Nm(NmPattern.TWO_FOUR), PruneSpec.of(null, null, "2:4", null, null));
    }

    @Test
    void badOptionsNameTheFault() {
        assertEquals("prune: give exactly one of --sparsity S [--scope layer|global], --nm N:M, --block RxC --sparsity S, --rows S",
                assertThrows(SparseprofException.class, () -> PruneSpec.parse("--nm 2:4 --sparsity 0.5")).getMessage());
        assertEquals("--sparsity must lie in [0, 1], got 1.5",
                assertThrows(SparseprofException.class, () -> PruneSpec.parse("--sparsity 1.5")).getMessage());
        assertEquals("--scope 'all': expected layer or global",
                assertThrows(SparseprofException.class, () -> PruneSpec.parse("--sparsity 0.5 --scope all")).getMessage());
        assertThrows(SparseprofException.class, () -> PruneSpec.parse("--block 4x4"));
        assertThrows(SparseprofException.class, () -> PruneSpec.parse("--block 4x4 --sparsity 0.5 --scope global"));
        assertThrows(SparseprofException.class, () -> PruneSpec.parse("--sparsity abc"));
        assertThrows(SparseprofException.class, () -> PruneSpec.parse("--nm 4:2"));
        assertThrows(SparseprofException.class, () -> PruneSpec.parse("--frobnicate 1"));
        assertThrows(SparseprofException.class, () -> PruneSpec.parse("--sparsity"));
        assertThrows(SparseprofException.class, () -> new LayerWeights("w", 2, 2, new float[3]));
    }

    static float[] scaled(float[] a, float f) {
        for (int i = 0; i < a.length; i++) a[i] *= f;
        return a;
    }
}

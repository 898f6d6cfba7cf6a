package dev.sparseprof.sparse.prune;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sparseprof.util.Progress;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The streaming pruner on stored bits chooses exactly what {@link Pruner} chooses on the decoded
 * floats: byte for byte the same file (survivors keep their bits, -0 stays -0) and the same counts,
 * for every width, spec and a shape whose rows straddle chunks and N:M groups and blocks.
 */
class StoredPrunerTest {
    private static final ValueLayout.OfShort I16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt I32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    /** Few distinct magnitudes (many ties), some +0 and -0, a NaN, subnormals. */
    private static MemorySegment weights(StoredLayer.Width width, int n, long seed) {
        Random r = new Random(seed);
        MemorySegment s = MemorySegment.ofArray(new byte[n * width.bytes()]);
        for (int i = 0; i < n; i++) {
            float v = (r.nextInt(61) - 30) / 8.0f;
            if (r.nextInt(50) == 0) v = -0.0f;
            if (r.nextInt(200) == 0) v = 1e-7f * (r.nextInt(5) - 2);
            if (i == n / 3) v = Float.NaN;
            switch (width) {
                case F16 -> s.setAtIndex(I16, i, Float.floatToFloat16(v));
                case BF16 -> s.setAtIndex(I16, i, (short) (Float.floatToRawIntBits(v) >>> 16));
                case F32 -> s.setAtIndex(I32, i, Float.floatToRawIntBits(v));
            }
        }
        return s;
    }

    private static float decode(StoredLayer.Width width, MemorySegment s, int i) {
        return switch (width) {
            case F16 -> Float.float16ToFloat(s.getAtIndex(I16, i));
            case BF16 -> Float.intBitsToFloat((s.getAtIndex(I16, i) & 0xffff) << 16);
            case F32 -> Float.intBitsToFloat(s.getAtIndex(I32, i));
        };
    }

    @ParameterizedTest
    @CsvSource({
        "F16, --sparsity 0.5,", "F16, --sparsity 0.29,", "F16, --sparsity 0,", "F16, --sparsity 1,", "F16, --sparsity 0.97,",
        "BF16, --sparsity 0.5,", "F32, --sparsity 0.5,", "F32, --sparsity 0.9,", "F32, --sparsity 1,", "F32, --sparsity 0.01,",
        "F16, --nm 2:4,", "BF16, --nm 1:4,", "F32, --nm 2:4,", "F16, --nm 3:8,", "F32, --nm 4:16,",
        "F16, --block 4x4 --sparsity 0.5,", "BF16, --block 3x5 --sparsity 0.7,", "F32, --block 8x8 --sparsity 0.25,",
        "F16, --rows 0.5,", "F32, --rows 0.3,",
        "F16, --nm 2:4, 1012", "BF16, --nm 1:4, 1012", "F32, --nm 2:4, 1012", "F32, --nm 3:4, 1012",
    })
    void streamedBytesAndCountsEqualThePrunedFloats(StoredLayer.Width width, String options, Integer colsOrNull) throws IOException {
        // 131 x 1009: chunks of 129 rows (the last one partial), rows not a multiple of 4, 8, 16 or the block sides;
        // 1012 columns take the whole-groups N:4 path
        int rows = 131;
        int cols = colsOrNull == null ? 1009 : colsOrNull;
        int n = rows * cols;
        MemorySegment source = weights(width, n, 7);
        PruneSpec spec = PruneSpec.parse(options);

        byte[] streamed = new byte[n * width.bytes()];
        long[] written = {0};
        PruneResult got = StoredPruner.prune(spec, new StoredLayer("w", rows, cols, width, source), (offset, bytes) -> {
            assertEquals(written[0], offset, "chunks arrive in order, each once");
            MemorySegment.copy(bytes, 0, MemorySegment.ofArray(streamed), offset, bytes.byteSize());
            written[0] += bytes.byteSize();
        });
        assertEquals(streamed.length, written[0]);

        float[] values = new float[n];
        for (int i = 0; i < n; i++) values[i] = decode(width, source, i);
        PruneResult want = Pruner.apply(spec, List.of(new LayerWeights("w", rows, cols, values))).get(0);
        // the writer's rule: a pruned weight becomes +0 unless it is stored as a zero already
        byte[] expected = source.toArray(ValueLayout.JAVA_BYTE);
        MemorySegment e = MemorySegment.ofArray(expected);
        for (int i = 0; i < n; i++) {
            if (values[i] != 0.0f || Float.isNaN(values[i])) continue;
            if (width == StoredLayer.Width.F32) {
                if ((e.getAtIndex(I32, i) & 0x7fffffff) != 0) e.setAtIndex(I32, i, 0);
            } else if ((e.getAtIndex(I16, i) & 0x7fff) != 0) {
                e.setAtIndex(I16, i, (short) 0);
            }
        }
        assertArrayEquals(expected, streamed, options + " on " + width);
        assertEquals(want, got, options + " on " + width);
    }

    @ParameterizedTest
    @CsvSource({"0.5", "0.29", "0", "1", "0.97", "0.01", "0.9"})
    void globalCutsOfMixedWidthsEqualTheGlobalPrunedFloats(double sparsity) throws IOException {
        // mixed widths with shared magnitudes, so ties at the threshold fall across layers of different widths
        StoredLayer.Width[] widths = {StoredLayer.Width.BF16, StoredLayer.Width.F16, StoredLayer.Width.F32, StoredLayer.Width.BF16};
        int[][] shapes = {{131, 1009}, {40, 77}, {129, 200}, {7, 4096}};
        List<StoredLayer> layers = new ArrayList<>();
        List<MemorySegment> stored = new ArrayList<>();
        List<LayerWeights> floats = new ArrayList<>();
        for (int k = 0; k < widths.length; k++) {
            int rows = shapes[k][0];
            int cols = shapes[k][1];
            MemorySegment source = weights(widths[k], rows * cols, 11 + k);
            layers.add(new StoredLayer("w" + k, rows, cols, widths[k], source));
            stored.add(source);
            float[] values = new float[rows * cols];
            for (int i = 0; i < values.length; i++) values[i] = decode(widths[k], source, i);
            floats.add(new LayerWeights("w" + k, rows, cols, values));
        }
        List<PruneResult> want = Pruner.apply(PruneSpec.parse("--sparsity " + sparsity + " --scope global"), floats);
        List<StoredGlobalMagnitude.Cut> cuts = StoredGlobalMagnitude.plan(layers, sparsity, Progress.NONE);
        for (int k = cuts.size() - 1; k >= 0; k--) { // any order
            StoredLayer layer = layers.get(k);
            byte[] streamed = new byte[(int) layer.bytes().byteSize()];
            PruneResult got = cuts.get(k).write((offset, bytes) -> MemorySegment.copy(bytes, 0, MemorySegment.ofArray(streamed), offset, bytes.byteSize()));
            byte[] expected = stored.get(k).toArray(ValueLayout.JAVA_BYTE);
            MemorySegment e = MemorySegment.ofArray(expected);
            float[] values = floats.get(k).values();
            for (int i = 0; i < values.length; i++) {
                if (values[i] != 0.0f || Float.isNaN(values[i])) continue;
                if (layer.width() == StoredLayer.Width.F32) {
                    if ((e.getAtIndex(I32, i) & 0x7fffffff) != 0) e.setAtIndex(I32, i, 0);
                } else if ((e.getAtIndex(I16, i) & 0x7fff) != 0) {
                    e.setAtIndex(I16, i, (short) 0);
                }
            }
            assertArrayEquals(expected, streamed, "layer " + k + " (" + layer.width() + ") at " + sparsity);
            assertEquals(want.get(k), got, "layer " + k + " at " + sparsity);
        }
    }

    @ParameterizedTest
    @CsvSource({"0.5", "0.97", "1", "0.01"})
    void globalCutsDoNotDependOnTheCountingThreads(double sparsity) {
        // more layers than threads, mixed widths: each thread counts a different set of layers
        StoredLayer.Width[] widths = StoredLayer.Width.values();
        List<StoredLayer> layers = new ArrayList<>();
        for (int k = 0; k < 11; k++) {
            int rows = 3 + 17 * k;
            int cols = 64 + 5 * k;
            StoredLayer.Width w = widths[k % widths.length];
            layers.add(new StoredLayer("w" + k, rows, cols, w, weights(w, rows * cols, 100 + k)));
        }
        List<StoredGlobalMagnitude.Cut> one = StoredGlobalMagnitude.plan(layers, sparsity, 1, Progress.NONE);
        for (int threads : new int[] {2, 3, 5}) {
            assertEquals(one, StoredGlobalMagnitude.plan(layers, sparsity, threads, Progress.NONE), threads + " threads at " + sparsity);
        }
    }
}

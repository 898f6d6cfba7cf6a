package dev.sparseprof.sparse.prune;

import dev.sparseprof.sparse.stats.NmPattern;
import java.io.IOException;

/**
 * N:M pruning on stored bits in one pass: in each group of M consecutive weights of a row (a partial
 * last group over its real width), a weight survives when fewer than N others of its group rank
 * above it (a larger magnitude key, or an equal key at a lower index), as {@link NmPruning} ranks
 * the decoded floats. The ranks are counted without branches (the keys are below 2^31, so a sign
 * bit of a difference is a comparison).
 */
final class StoredNm {
    private StoredNm() {}

    static PruneResult prune(StoredLayer layer, NmPattern pattern, StoredChunks chunks, StoredPruner.Sink sink) throws IOException {
        int cols = layer.cols();
        int n = pattern.n();
        int m = pattern.m();
        int[] keys = new int[m];
        long before = 0;
        long after = 0;
        boolean half = chunks.halves != null;
        for (int c = 0; c < chunks.count(); c++) {
            int len = chunks.load(c);
            for (int rowStart = 0; rowStart < len; rowStart += cols) {
                for (int g = 0; g < cols; g += m) {
                    int start = rowStart + g;
                    int width = Math.min(m, cols - g);
                    for (int i = 0; i < width; i++) keys[i] = half ? chunks.halves[start + i] & 0x7fff : chunks.singles[start + i] & 0x7fffffff;
                    for (int i = 0; i < width; i++) {
                        int key = keys[i];
                        int better = 0;
                        for (int j = 0; j < i; j++) better += (key - keys[j] - 1) >>> 31; // keys[j] >= key
                        for (int j = i + 1; j < width; j++) better += (key - keys[j]) >>> 31; // keys[j] > key
                        int nonZero = (-key) >>> 31;
                        before += nonZero;
                        if (better >= n) {
                            if (half) chunks.halves[start + i] = key == 0 ? chunks.halves[start + i] : 0;
                            else chunks.singles[start + i] = key == 0 ? chunks.singles[start + i] : 0;
                        } else {
                            after += nonZero;
                        }
                    }
                }
            }
            chunks.store(c, len, sink);
        }
        return new PruneResult(layer.name(), layer.elements(), before, after);
    }
}

package dev.sparseprof.sparse.prune;

import dev.sparseprof.util.Progress;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Global magnitude pruning ({@code --scope global}) on stored layers, streamed: the same survivors
 * as {@link Ranking#keepLargestMagnitudes} over all the layers' decoded floats taken in order (the
 * largest |w| first, ties to the earlier layer, then the lower index), without holding any layer.
 * Layers may mix fp16, bf16 and fp32: every weight ranks by its float key (the decoded float's bits
 * without the sign; fp16 and bf16 decode exactly, so a stored key maps to one float key, in order).
 *
 * <p>{@link #plan} reads the layers chunk by chunk ({@link StoredChunks}) and keeps only
 * histograms, never a layer: first the stored keys of the 16-bit layers (2^15 counts per width,
 * each stored key one float key) and the top 16 bits of the fp32 layers' keys, which give the
 * threshold's bucket; then, for fp32 layers only, the low 15 bits of their keys inside that bucket,
 * which with the 16-bit counts give the threshold key T and how many weights at T survive; then per
 * layer its zeros, its weights above T and at T, which hands the surviving T weights to the layers
 * in order. Each layer's {@link Cut} is then written on its own, in any order and on any thread,
 * by {@link StoredMagnitude}'s writing pass with T in the layer's stored keys.
 */
public final class StoredGlobalMagnitude {
    /** Float key of each fp16 key (0..0x7fff): strictly increasing, NaN payloads included. */
    private static final int[] FP16_FLOAT_KEY = fp16Keys();

    private StoredGlobalMagnitude() {}

    /**
     * One layer's share of a global cut, in the layer's stored keys: weights with key above
     * {@code key} survive, and the first {@code ties} of the {@code atThreshold} weights with key
     * equal to it; {@code before}/{@code after} are the layer's non-zeros before and after.
     */
    public record Cut(StoredLayer layer, int key, long ties, long atThreshold, long before, long after) {
        /** Writes the pruned layer into {@code sink} and returns its counts. */
        public PruneResult write(StoredPruner.Sink sink) throws IOException {
            StoredChunks chunks = new StoredChunks(layer, 1);
            if (key < 0) return StoredPruner.copy(layer, chunks, sink);
            StoredMagnitude.write(chunks, sink, key, ties, atThreshold);
            return new PruneResult(layer.name(), layer.elements(), before, after);
        }
    }

    /** The cuts that zero {@code floor(sparsity * N)} of the N weights of {@code layers} (in order). */
    public static List<Cut> plan(List<StoredLayer> layers, double sparsity, Progress progress) {
        int done = 0;
        int steps = 2 * layers.size();
        long total = 0;
        for (StoredLayer l : layers) total += l.elements();
        long keep = total - Ranking.prunedCount(sparsity, total);
        List<Cut> cuts = new ArrayList<>(layers.size());
        if (keep >= total) {
            for (StoredLayer l : layers) cuts.add(new Cut(l, -1, 0, 0, 0, 0));
            return cuts;
        }
        int threshold;
        long ties;
        if (keep <= 0) {
            threshold = Integer.MAX_VALUE; // above every key: nothing survives
            ties = 0;
        } else {
            long[] bf16 = new long[1 << 15];
            long[] fp16 = new long[1 << 15];
            long[] high = new long[1 << 16];
            for (StoredLayer l : layers) {
                switch (l.width()) {
                    case BF16 -> histogram(l, bf16, -1);
                    case F16 -> histogram(l, fp16, -1);
                    case F32 -> histogram(l, high, -1);
                }
                progress.update(++done, steps);
            }
            for (int k = 0; k < bf16.length; k++) {
                high[floatKey(StoredLayer.Width.BF16, k) >>> 15] += bf16[k];
                high[floatKey(StoredLayer.Width.F16, k) >>> 15] += fp16[k];
            }
            int bucket = high.length - 1;
            long above = 0;
            while (above + high[bucket] < keep) above += high[bucket--];
            long[] low = new long[1 << 15];
            for (int k = 0; k < bf16.length; k++) {
                int b = floatKey(StoredLayer.Width.BF16, k);
                if (b >>> 15 == bucket) low[b & 0x7fff] += bf16[k];
                int f = floatKey(StoredLayer.Width.F16, k);
                if (f >>> 15 == bucket) low[f & 0x7fff] += fp16[k];
            }
            for (StoredLayer l : layers) if (l.width() == StoredLayer.Width.F32) histogram(l, low, bucket);
            int lowKey = low.length - 1;
            while (above + low[lowKey] < keep) above += low[lowKey--];
            threshold = (bucket << 15) | lowKey;
            ties = keep - above;
        }
        for (StoredLayer l : layers) {
            int key = storedKeyAtOrBelow(l.width(), threshold);
            boolean equal = keep > 0 && floatKey(l.width(), key) == threshold;
            long[] counts = counts(l, key); // zeros, above key, at key
            long at = equal ? counts[2] : 0;
            long mine = Math.min(ties, at);
            ties -= mine;
            long before = l.elements() - counts[0];
            long after = counts[1] + (threshold > 0 ? mine : 0);
            // not equal: the layer's weights at its key lie below T and are all dropped
            cuts.add(new Cut(l, key, mine, at, before, after));
            progress.update(++done, steps);
        }
        return cuts;
    }

    /**
     * Adds the layer's keys to {@code hist}: a 16-bit layer's stored keys; an fp32 layer's top 16
     * bits ({@code bucket} < 0), or the low 15 bits of its keys in {@code bucket}.
     */
    private static void histogram(StoredLayer l, long[] hist, int bucket) {
        StoredChunks chunks = new StoredChunks(l, 1);
        int[] lanes = new int[hist.length];
        for (int c = 0; c < chunks.count(); c++) {
            int len = chunks.load(c);
            if (chunks.halves != null) {
                short[] a = chunks.halves;
                for (int i = 0; i < len; i++) lanes[a[i] & 0x7fff]++;
            } else if (bucket < 0) {
                int[] a = chunks.singles;
                for (int i = 0; i < len; i++) lanes[(a[i] & 0x7fffffff) >>> 15]++;
            } else {
                int[] a = chunks.singles;
                for (int i = 0; i < len; i++) {
                    int key = a[i] & 0x7fffffff;
                    if (key >>> 15 == bucket) lanes[key & 0x7fff]++;
                }
            }
        }
        // a layer has fewer than 2^31 weights, so its int counts cannot overflow
        for (int b = 0; b < hist.length; b++) hist[b] += lanes[b];
    }

    /** The layer's zeros, its weights with stored key above {@code key}, and those equal to it. */
    private static long[] counts(StoredLayer l, int key) {
        StoredChunks chunks = new StoredChunks(l, 1);
        long zeros = 0;
        long above = 0;
        long at = 0;
        for (int c = 0; c < chunks.count(); c++) {
            int len = chunks.load(c);
            for (int i = 0; i < len; i++) {
                int k = chunks.halves != null ? chunks.halves[i] & 0x7fff : chunks.singles[i] & 0x7fffffff;
                zeros += k == 0 ? 1 : 0;
                above += k > key ? 1 : 0;
                at += k == key ? 1 : 0;
            }
        }
        return new long[] {zeros, above, at};
    }

    /** The float key of stored key {@code key} (the stored bits without the sign). */
    static int floatKey(StoredLayer.Width width, int key) {
        return switch (width) {
            case BF16 -> key << 16;
            case F16 -> FP16_FLOAT_KEY[key];
            case F32 -> key;
        };
    }

    /** The largest stored key whose float key is at most {@code floatKey} (keys are in the float keys' order). */
    static int storedKeyAtOrBelow(StoredLayer.Width width, int floatKey) {
        return switch (width) {
            case BF16 -> floatKey >>> 16;
            case F32 -> floatKey;
            case F16 -> {
                int lo = 0;
                int hi = FP16_FLOAT_KEY.length - 1;
                if (FP16_FLOAT_KEY[hi] <= floatKey) yield hi;
                while (lo < hi) { // FP16_FLOAT_KEY[lo] <= floatKey < FP16_FLOAT_KEY[hi + 1]
                    int mid = (lo + hi + 1) >>> 1;
                    if (FP16_FLOAT_KEY[mid] <= floatKey) lo = mid;
                    else hi = mid - 1;
                }
                yield lo;
            }
        };
    }

    private static int[] fp16Keys() {
        int[] keys = new int[1 << 15];
        for (int k = 0; k < keys.length; k++) keys[k] = Float.floatToRawIntBits(Float.float16ToFloat((short) k)) & 0x7fffffff;
        return keys;
    }
}

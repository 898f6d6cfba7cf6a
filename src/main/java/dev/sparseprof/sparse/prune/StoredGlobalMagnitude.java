package dev.sparseprof.sparse.prune;

import dev.sparseprof.util.Progress;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Global magnitude pruning ({@code --scope global}) on stored layers, streamed: the same survivors
 * as {@link Ranking#keepLargestMagnitudes} over all the layers' decoded floats taken in order (the
 * largest |w| first, ties to the earlier layer, then the lower index), without holding any layer.
 * Layers may mix fp16, bf16 and fp32: every weight ranks by its float key (the decoded float's bits
 * without the sign; fp16 and bf16 decode exactly, so a stored key maps to one float key, in order).
 *
 * <p>{@link #plan} reads the layers chunk by chunk ({@link StoredChunks}) and keeps only
 * histograms, never a layer. The first pass counts, per 16-bit layer, its stored keys (2^15 counts,
 * each stored key one float key), and per fp32 layer the top 16 bits of its keys and its zeros;
 * their sums give the threshold's bucket. A second pass, over the fp32 layers only, counts per layer
 * the low 15 bits of its keys inside that bucket and its weights above the bucket; with the 16-bit
 * counts these give the threshold key T and how many weights at T survive. Each layer's zeros, its
 * weights above T and at T then come from its own counts, with no further pass, which hands the
 * surviving T weights to the layers in order. Both passes run on up to {@link LayerTeam#THREADS}
 * threads, a layer to a task, largest first; the sums do not depend on which thread counted what.
 * A layer's counts are kept between its non-zero keys only (trained weights use a few thousand of
 * the 2^15 keys): at most 128 KiB a layer. Each layer's {@link Cut} is then written on its own, in
 * any order and on any thread, by {@link StoredMagnitude}'s writing pass with T in the layer's
 * stored keys.
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
        return plan(layers, sparsity, LayerTeam.THREADS, progress);
    }

    /** {@link #plan(List, double, Progress)} with its counting passes on up to {@code threads} threads. */
    static List<Cut> plan(List<StoredLayer> layers, double sparsity, int threads, Progress progress) {
        int n = layers.size();
        long total = 0;
        int singles = 0;
        for (StoredLayer l : layers) {
            total += l.elements();
            if (l.width() == StoredLayer.Width.F32) singles++;
        }
        long keep = total - Ranking.prunedCount(sparsity, total);
        List<Cut> cuts = new ArrayList<>(n);
        if (keep >= total) {
            for (StoredLayer l : layers) cuts.add(new Cut(l, -1, 0, 0, 0, 0));
            return cuts;
        }
        Integer[] order = new Integer[n]; // largest first, so the last tasks are short
        for (int k = 0; k < n; k++) order[k] = k;
        Arrays.sort(order, (a, b) -> Long.compare(layers.get(b).elements(), layers.get(a).elements()));
        Steps steps = new Steps(progress, n + (keep > 0 ? singles : 0));
        Counts[] counts = new Counts[n];
        List<Scratch> team = LayerTeam.run(n, threads, Scratch::new, (t, s) -> {
            int k = order[t];
            counts[k] = s.firstPass(layers.get(k));
            steps.done();
        });
        int threshold;
        long ties;
        if (keep <= 0) {
            threshold = Integer.MAX_VALUE; // above every key: nothing survives
            ties = 0;
        } else {
            long[] bf16 = new long[1 << 15];
            long[] fp16 = new long[1 << 15];
            long[] high = new long[1 << 16];
            for (Scratch s : team) {
                for (int k = 0; k < bf16.length; k++) {
                    bf16[k] += s.bf16[k];
                    fp16[k] += s.fp16[k];
                }
                for (int k = 0; k < high.length; k++) high[k] += s.high[k];
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
            if (singles > 0) {
                int[] fp32 = new int[singles];
                int j = 0;
                for (int k : order) if (layers.get(k).width() == StoredLayer.Width.F32) fp32[j++] = k;
                int inBucket = bucket;
                for (Scratch s : LayerTeam.run(singles, threads, Scratch::new, (t, s) -> {
                    int k = fp32[t];
                    counts[k] = s.secondPass(layers.get(k), inBucket, counts[k].zeros());
                    steps.done();
                })) {
                    for (int k = 0; k < low.length; k++) low[k] += s.low[k];
                }
            }
            int lowKey = low.length - 1;
            while (above + low[lowKey] < keep) above += low[lowKey--];
            threshold = (bucket << 15) | lowKey;
            ties = keep - above;
        }
        for (int k = 0; k < n; k++) {
            StoredLayer l = layers.get(k);
            Counts c = counts[k];
            int key = storedKeyAtOrBelow(l.width(), threshold);
            boolean equal = keep > 0 && floatKey(l.width(), key) == threshold;
            // an fp32 layer's counts cover the threshold's bucket (its low 15 bits), 16-bit ones every key
            int counted = l.width() == StoredLayer.Width.F32 ? key & 0x7fff : key;
            long at = equal ? c.at(counted) : 0;
            long mine = Math.min(ties, at);
            ties -= mine;
            long before = l.elements() - c.zeros();
            long after = (keep > 0 ? c.above(counted) : 0) + (threshold > 0 ? mine : 0);
            // not equal: the layer's weights at its key lie below T and are all dropped
            cuts.add(new Cut(l, key, mine, at, before, after));
        }
        return cuts;
    }

    /**
     * One layer's counts: {@code hist[i]} weights with key {@code lo + i} (16-bit layers: the stored
     * key; fp32 layers: the low 15 bits of keys inside the threshold's bucket, empty before the
     * second pass), {@code beyond} more above the last of them (fp32: the weights above the bucket),
     * and the layer's zeros.
     */
    private record Counts(int lo, int[] hist, long beyond, long zeros) {
        long at(int key) {
            int i = key - lo;
            return i >= 0 && i < hist.length ? hist[i] : 0;
        }

        long above(int key) {
            long n = beyond;
            for (int i = Math.max(0, key + 1 - lo); i < hist.length; i++) n += hist[i];
            return n;
        }

        /** The counts of {@code lanes[0..keys)} (four interleaved lanes a key) between the first and last key counted. */
        static Counts of(int[] lanes, int keys, long beyond, long zeros) {
            int lo = 0;
            while (lo < keys && lanes[4 * lo] + lanes[4 * lo + 1] + lanes[4 * lo + 2] + lanes[4 * lo + 3] == 0) lo++;
            int hi = keys;
            while (hi > lo && lanes[4 * hi - 4] + lanes[4 * hi - 3] + lanes[4 * hi - 2] + lanes[4 * hi - 1] == 0) hi--;
            int[] hist = new int[hi - lo];
            for (int i = 0; i < hist.length; i++) {
                int b = 4 * (lo + i);
                hist[i] = lanes[b] + lanes[b + 1] + lanes[b + 2] + lanes[b + 3];
            }
            return new Counts(lo, hist, beyond, zeros);
        }
    }

    /**
     * One counting thread's scratch: four interleaved counters a key (trained weights crowd into a
     * few keys, and one counter would make each increment wait for the last), and its sums over the
     * layers it counted. A layer has fewer than 2^31 weights, so its int counts cannot overflow.
     */
    private static final class Scratch {
        final int[] lanes = new int[4 << 16];
        final long[] bf16 = new long[1 << 15];
        final long[] fp16 = new long[1 << 15];
        final long[] high = new long[1 << 16];
        final long[] low = new long[1 << 15];

        /** A 16-bit layer's stored keys, or an fp32 layer's top 16 key bits and zeros (no counts kept). */
        Counts firstPass(StoredLayer l) {
            StoredChunks chunks = new StoredChunks(l, 1);
            boolean half = chunks.halves != null;
            int keys = half ? 1 << 15 : 1 << 16;
            Arrays.fill(lanes, 0, 4 * keys, 0);
            long zeros = 0;
            for (int c = 0; c < chunks.count(); c++) {
                int len = chunks.load(c);
                int i = 0;
                if (half) {
                    StoredMagnitude.countHalfKeys(chunks.halves, len, lanes);
                } else {
                    int[] a = chunks.singles;
                    for (; i + 4 <= len; i += 4) {
                        int k0 = a[i] & 0x7fffffff;
                        int k1 = a[i + 1] & 0x7fffffff;
                        int k2 = a[i + 2] & 0x7fffffff;
                        int k3 = a[i + 3] & 0x7fffffff;
                        zeros += ((k0 - 1) >>> 31) + ((k1 - 1) >>> 31) + ((k2 - 1) >>> 31) + ((k3 - 1) >>> 31);
                        lanes[(k0 >>> 15) << 2]++;
                        lanes[((k1 >>> 15) << 2) + 1]++;
                        lanes[((k2 >>> 15) << 2) + 2]++;
                        lanes[((k3 >>> 15) << 2) + 3]++;
                    }
                    for (; i < len; i++) {
                        int k = a[i] & 0x7fffffff;
                        zeros += (k - 1) >>> 31;
                        lanes[(k >>> 15) << 2]++;
                    }
                }
            }
            if (!half) {
                for (int b = 0; b < high.length; b++) high[b] += (long) lanes[4 * b] + lanes[4 * b + 1] + lanes[4 * b + 2] + lanes[4 * b + 3];
                return new Counts(0, new int[0], 0, zeros);
            }
            Counts counts = Counts.of(lanes, keys, 0, 0);
            long[] sums = l.width() == StoredLayer.Width.BF16 ? bf16 : fp16;
            for (int i = 0; i < counts.hist().length; i++) sums[counts.lo() + i] += counts.hist()[i];
            return new Counts(counts.lo(), counts.hist(), 0, counts.at(0));
        }

        /** An fp32 layer's low 15 key bits inside {@code bucket}, and its weights above the bucket. */
        Counts secondPass(StoredLayer l, int bucket, long zeros) {
            StoredChunks chunks = new StoredChunks(l, 1);
            Arrays.fill(lanes, 0, 4 << 15, 0);
            long beyond = 0;
            for (int c = 0; c < chunks.count(); c++) {
                int len = chunks.load(c);
                int[] a = chunks.singles;
                for (int i = 0; i < len; i++) {
                    int key = a[i] & 0x7fffffff;
                    beyond += (bucket - (key >>> 15)) >>> 31;
                    if (key >>> 15 == bucket) lanes[(key & 0x7fff) << 2]++;
                }
            }
            Counts counts = Counts.of(lanes, 1 << 15, beyond, zeros);
            for (int i = 0; i < counts.hist().length; i++) low[counts.lo() + i] += counts.hist()[i];
            return counts;
        }
    }

    /** Progress over the counting passes' layers, from any thread. */
    private static final class Steps {
        private final Progress progress;
        private final long total;
        private long done;

        Steps(Progress progress, long total) {
            this.progress = progress;
            this.total = total;
        }

        synchronized void done() {
            progress.update(++done, total);
        }
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

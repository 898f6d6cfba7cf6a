package dev.sparseprof.sparse.prune;

import dev.sparseprof.sparse.stats.BlockShape;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;

/**
 * Prunes one stored layer ({@link StoredLayer}: fp16, bf16 or fp32 rows) into a sink, chunk by
 * chunk, in the stored width, with the same choice of survivors as {@link Pruner} on the decoded
 * floats (so {@code profile(prune(x))} has the requested counts exactly): per-layer magnitude
 * ({@link StoredMagnitude}: one counting pass for 16-bit weights, two for fp32, then the writing
 * pass), N:M ({@link StoredNm}: the writing pass only), blocks and rows ({@link StoredBlocks}: a
 * norm pass and the writing pass). The sink receives the layer's bytes in order, each chunk once.
 * Global magnitude ranks all layers together and is not a per-layer stream: {@link Pruner} does it.
 * Stored bits travel as the host's primitives, so the host must be little-endian (x86, Arm) as the
 * files are.
 */
public final class StoredPruner {
    /** Receives {@code bytes}, the layer's stored bytes from {@code byteOffset} on. */
    @FunctionalInterface
    public interface Sink {
        void write(long byteOffset, MemorySegment bytes) throws IOException;
    }

    private StoredPruner() {}

    /** Whether {@code spec} streams layer by layer (every spec but global magnitude). */
    public static boolean streams(PruneSpec spec) {
        return !(spec instanceof PruneSpec.Magnitude m && m.scope() == PruneScope.GLOBAL);
    }

    /** Prunes {@code layer} by {@code spec} (null: unchanged) into {@code sink}. */
    public static PruneResult prune(PruneSpec spec, StoredLayer layer, Sink sink) throws IOException {
        if (ByteOrder.nativeOrder() != ByteOrder.LITTLE_ENDIAN) throw new IllegalStateException("stored pruning needs a little-endian host");
        int alignRows = spec instanceof PruneSpec.Block b ? b.shape().rows() : 1;
        StoredChunks chunks = new StoredChunks(layer, alignRows);
        return switch (spec) {
            case null -> copy(layer, chunks, sink);
            case PruneSpec.Magnitude m when m.scope() == PruneScope.GLOBAL -> throw new IllegalArgumentException("global magnitude pruning does not stream per layer");
            case PruneSpec.Magnitude m -> StoredMagnitude.prune(layer, m.sparsity(), chunks, sink);
            case PruneSpec.Nm nm -> StoredNm.prune(layer, nm.pattern(), chunks, sink);
            case PruneSpec.Block b -> StoredBlocks.prune(layer, b.shape(), b.sparsity(), chunks, sink);
            case PruneSpec.Rows r -> StoredBlocks.prune(layer, new BlockShape(1, layer.cols()), r.sparsity(), chunks, sink);
        };
    }

    /** The layer unchanged, with its non-zeros counted. */
    static PruneResult copy(StoredLayer layer, StoredChunks chunks, Sink sink) throws IOException {
        long nonZeros = 0;
        for (int c = 0; c < chunks.count(); c++) {
            int len = chunks.load(c);
            if (chunks.halves != null) for (int i = 0; i < len; i++) nonZeros += (-(chunks.halves[i] & 0x7fff)) >>> 31;
            else for (int i = 0; i < len; i++) nonZeros += (-(chunks.singles[i] & 0x7fffffff)) >>> 31;
            chunks.store(c, len, sink);
        }
        return new PruneResult(layer.name(), layer.elements(), nonZeros, nonZeros);
    }
}

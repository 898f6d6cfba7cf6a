package dev.sparseprof.model;

import dev.sparseprof.util.DType;
import java.lang.foreign.Arena;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A loaded model: every tensor the file holds, the weights that act as GEMMs (or gathers), and
 * the file's free-form metadata (safetensors {@code __metadata__}, ONNX producer, ...).
 *
 * <p>The tensors' data may be memory-mapped through {@code arena}; {@link #close()} unmaps it, after
 * which no tensor of this model may be read.
 */
public record Model(String source, String format, List<Tensor> tensors, List<GemmLayer> layers,
                    Map<String, String> metadata, Arena arena) implements AutoCloseable {
    public Model {
        tensors = List.copyOf(tensors);
        layers = List.copyOf(layers);
        // Kept in the reader's order: Map.copyOf's iteration order is salted per JVM run, and the
        // writers copy this map into the pruned file, which must come out byte-identical each run.
        metadata = Collections.unmodifiableMap(new LinkedHashMap<>(metadata));
    }

    /**
     * The dtype most of the GEMM weights (by parameters, gathers left out) are stored in, when it is
     * a narrow one a kernel would run as it is: int8, uint8, fp16, bf16 or an fp8; null for fp32 and
     * wider (the command's hardware default applies) or a model without GEMM layers.
     */
    public DType storedWeightDType() {
        Map<DType, Long> params = new EnumMap<>(DType.class);
        for (GemmLayer l : layers) {
            if (l.kind() != LayerKind.EMBEDDING_GATHER) params.merge(l.storedDType(), l.params(), Long::sum);
        }
        DType best = null;
        for (Map.Entry<DType, Long> e : params.entrySet()) {
            if (best == null || e.getValue() > params.get(best)) best = e.getKey();
        }
        return best != null && NARROW.contains(best) ? best : null;
    }

    private static final Set<DType> NARROW = EnumSet.of(DType.I8, DType.U8, DType.F16, DType.BF16, DType.F8_E4M3, DType.F8_E5M2);

    @Override
    public void close() {
        if (arena != null) arena.close();
    }
}

package dev.sparseprof.kernel;

import dev.sparseprof.util.SparseprofException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/** The registry of partitions by name ({@code static}, {@code nnz}, {@code merge}). */
public final class Partitions {
    private static final Map<String, Supplier<Partition>> BY_NAME = new LinkedHashMap<>();

    static {
        BY_NAME.put("static", StaticRowsPartition::new);
        BY_NAME.put("nnz", NnzBalancedPartition::new);
        BY_NAME.put("merge", MergePathPartition::new);
    }

    private Partitions() {}

    public static Iterable<String> names() { return BY_NAME.keySet(); }

    public static Partition byName(String name) {
        Supplier<Partition> p = BY_NAME.get(name);
        if (p == null) throw new SparseprofException("unknown partition '" + name + "' (known: " + String.join(", ", BY_NAME.keySet()) + ")");
        return p.get();
    }
}

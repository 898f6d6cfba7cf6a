package dev.sparseprof.memsim;

import dev.sparseprof.util.SparseprofException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** The replacement policies by name: the explicit registry the CLI lists and configs refer to. */
public final class ReplacementPolicies {
    private static final Map<String, ReplacementPolicy.Factory> REGISTRY = new LinkedHashMap<>();

    static {
        REGISTRY.put("lru", RecencyPolicy::lru);
        REGISTRY.put("fifo", RecencyPolicy::fifo);
        REGISTRY.put("random", RandomPolicy::new);
        REGISTRY.put("plru", TreePlruPolicy::new);
        REGISTRY.put("srrip", SrripPolicy::new);
    }

    private ReplacementPolicies() {}

    public static Set<String> names() {
        return REGISTRY.keySet();
    }

    public static boolean exists(String name) {
        return REGISTRY.containsKey(name);
    }

    public static ReplacementPolicy create(String name, int sets, int ways, long seed) {
        ReplacementPolicy.Factory f = REGISTRY.get(name);
        if (f == null) throw new SparseprofException("unknown replacement policy '" + name + "' (known: " + String.join(", ", names()) + ")");
        return f.create(sets, ways, seed);
    }
}

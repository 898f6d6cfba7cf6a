package dev.sparseprof.memsim;

import dev.sparseprof.util.SparseprofException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/** The prefetchers by name ({@code none} means no prefetcher). */
public final class Prefetchers {
    private static final Map<String, Supplier<Prefetcher>> REGISTRY = new LinkedHashMap<>();

    static {
        REGISTRY.put("none", () -> null);
        REGISTRY.put("next-line", NextLinePrefetcher::new);
        REGISTRY.put("stride", StridePrefetcher::new);
    }

    private Prefetchers() {}

    public static Set<String> names() {
        return REGISTRY.keySet();
    }

    public static boolean exists(String name) {
        return REGISTRY.containsKey(name);
    }

    /** A new prefetcher, or null for {@code none}. */
    public static Prefetcher create(String name) {
        Supplier<Prefetcher> s = REGISTRY.get(name);
        if (s == null) throw new SparseprofException("unknown prefetcher '" + name + "' (known: " + String.join(", ", names()) + ")");
        return s.get();
    }
}

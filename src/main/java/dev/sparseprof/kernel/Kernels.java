package dev.sparseprof.kernel;

import dev.sparseprof.util.SparseprofException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/** The registry of kernels by format name, listable from the CLI. */
public final class Kernels {
    private static final Map<String, Supplier<SpmmKernel<?>>> BY_NAME = new LinkedHashMap<>();

    static {
        BY_NAME.put("dense", DenseGemm::new);
        BY_NAME.put("csr", CsrSpmm::new);
        BY_NAME.put("csr-gather", CsrGatherSpmm::new);
    }

    private Kernels() {}

    public static Set<String> names() { return BY_NAME.keySet(); }

    public static SpmmKernel<?> byName(String name) {
        Supplier<SpmmKernel<?>> k = BY_NAME.get(name);
        if (k == null) throw new SparseprofException("unknown format '" + name + "' (known: " + String.join(", ", BY_NAME.keySet()) + ")");
        return k.get();
    }
}

package dev.sparseprof.perfmodel;

import dev.sparseprof.sparse.stats.BlockShape;
import dev.sparseprof.sparse.stats.NmPattern;
import dev.sparseprof.util.SparseprofException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/** The registry of format models by name, in the order the CLI lists them. */
public final class FormatModels {
    private static final Map<String, Supplier<FormatModel>> REGISTRY = new LinkedHashMap<>();

    static {
        REGISTRY.put("dense", DenseFormat::new);
        REGISTRY.put("csr", CsrFormat::new);
        REGISTRY.put("coo", CooFormat::new);
        REGISTRY.put("bsr4x4", () -> new BsrFormat(BlockShape.B4X4));
        REGISTRY.put("2:4", () -> new TwoFourFormat(NmPattern.TWO_FOUR));
        REGISTRY.put("1:2", () -> new TwoFourFormat(NmPattern.ONE_TWO));
    }

    private FormatModels() {}

    public static List<String> names() {
        return List.copyOf(REGISTRY.keySet());
    }

    public static FormatModel byName(String name) {
        Supplier<FormatModel> s = REGISTRY.get(name);
        if (s == null) throw new SparseprofException("unknown format '" + name + "' (known: " + String.join(", ", REGISTRY.keySet()) + ")");
        return s.get();
    }
}

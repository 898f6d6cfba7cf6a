package dev.sparseprof.sparse.prune;

import dev.sparseprof.util.SparseprofException;
import java.util.Locale;

/** Whether magnitude pruning ranks each layer alone or all layers together. */
public enum PruneScope {
    LAYER, GLOBAL;

    public static PruneScope parse(String text) {
        return switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "layer" -> LAYER;
            case "global" -> GLOBAL;
            default -> throw new SparseprofException("--scope '" + text + "': expected layer or global");
        };
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}

package dev.sparseprof.memsim;

import dev.sparseprof.util.SparseprofException;

/**
 * How a level relates to the levels above it. {@code NON_INCLUSIVE}: Dinero's, nothing enforced.
 * {@code INCLUSIVE}: evicting a line back-invalidates it above (their dirty data goes down with the
 * victim). {@code EXCLUSIVE}: a victim cache as AMD Zen's L3; it is filled only by lines the level
 * above evicts (clean or dirty), and a hit hands the line up and drops it here.
 */
public enum Inclusion {
    NON_INCLUSIVE("non-inclusive"), INCLUSIVE("inclusive"), EXCLUSIVE("exclusive");

    private final String label;

    Inclusion(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    public static Inclusion parse(String text) {
        for (Inclusion i : values()) if (i.label.equals(text)) return i;
        throw new SparseprofException("unknown inclusion '" + text + "' (use non-inclusive, inclusive or exclusive)");
    }
}

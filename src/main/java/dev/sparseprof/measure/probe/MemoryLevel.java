package dev.sparseprof.measure.probe;

import java.util.Locale;

/** The memory level a probe's working set is sized to stay in. */
public enum MemoryLevel {
    L1, L2, L3, DRAM;

    /** The lower-case name used in spec keys ({@code l1}, {@code dram}). */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }
}

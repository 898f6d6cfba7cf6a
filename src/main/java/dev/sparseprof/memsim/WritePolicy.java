package dev.sparseprof.memsim;

import dev.sparseprof.util.SparseprofException;

/** Write hit and write miss handling of a cache level, named as on the command line. */
public enum WritePolicy {
    /** Write-back, write-allocate (Dinero {@code -wback a -walloc a}). */
    WB_WA("wb-wa", true, true),
    /** Write-through, no-write-allocate (Dinero {@code -wback n -walloc n}). */
    WT_NWA("wt-nwa", false, false),
    WB_NWA("wb-nwa", true, false),
    WT_WA("wt-wa", false, true);

    private final String label;
    private final boolean writeBack;
    private final boolean writeAllocate;

    WritePolicy(String label, boolean writeBack, boolean writeAllocate) {
        this.label = label;
        this.writeBack = writeBack;
        this.writeAllocate = writeAllocate;
    }

    public String label() {
        return label;
    }

    public boolean writeBack() {
        return writeBack;
    }

    public boolean writeAllocate() {
        return writeAllocate;
    }

    public static WritePolicy parse(String text) {
        for (WritePolicy p : values()) if (p.label.equals(text)) return p;
        throw new SparseprofException("unknown write policy '" + text + "' (use wb-wa, wt-nwa, wb-nwa or wt-wa)");
    }
}

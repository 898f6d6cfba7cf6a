package dev.sparseprof.trace;

/** The kind of a memory access, in the order of Dinero's din labels 0-5. */
public enum AccessKind {
    READ, WRITE, INSTRUCTION_FETCH, MISC, COPY_BACK, INVALIDATE;

    private static final AccessKind[] BY_LABEL = values();

    /** The din label (0 read, 1 write, 2 ifetch, 3 misc, 4 copy-back, 5 invalidate). */
    public int dinLabel() {
        return ordinal();
    }

    public static AccessKind fromDinLabel(int label) {
        if (label < 0 || label >= BY_LABEL.length) throw new IllegalArgumentException("din label " + label);
        return BY_LABEL[label];
    }
}

package dev.sparseprof.trace;

/**
 * Which data structure of a kernel an access touches, so that every statistic can be split by
 * array. {@link #UNKNOWN} is what imported traces carry.
 */
public enum ArrayRole {
    VALUES("values"), COLUMN_INDICES("colidx"), ROW_POINTERS("rowptr"), METADATA("metadata"),
    B_GATHER("B"), C_SCATTER("C"), DENSE_A("A"), UNKNOWN("unknown");

    public static final int COUNT = values().length;
    private final String label;

    ArrayRole(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}

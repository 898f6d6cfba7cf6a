package dev.sparseprof.perfmodel;

/**
 * Which costs a prediction includes. {@link #ALL} is the prediction; the efficiency-gap breakdown
 * switches them on one at a time (index and metadata bytes, cache misses beyond the compulsory
 * ones, load imbalance, fixed overheads), so that the increments add up to predicted minus ideal.
 */
public record Features(boolean indexBytes, boolean cacheMisses, boolean loadImbalance, boolean overheads) {
    public static final Features ALL = new Features(true, true, true, true);
    public static final Features NONE = new Features(false, false, false, false);
}

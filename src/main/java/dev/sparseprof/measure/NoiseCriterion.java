package dev.sparseprof.measure;

import java.util.Locale;

/**
 * Which of {@link NoiseCriteria}'s bounds a noisy case passed ({@link #NONE} where it passed none),
 * kept with the case ({@link Stability#criterion}) and in the measurements JSON
 * ({@code noiseCriterion}: {@link #key}), so that what a case's noise was is read as a value, not
 * back out of its reason's words. {@link #label} is what counts of noisy cases name it by.
 */
public enum NoiseCriterion {
    NONE("none", ""),
    IQR("iqr", "IQR"),
    RANGE("range", "max/min"),
    DRIFT("drift", "drift"),
    PAGE_FAULTS("pageFaults", "page faults"),
    CANARY("canary", "FMA canary"),
    /** A reason in an older file that names none of the above. */
    OTHER("other", "other");

    private final String key;
    private final String label;

    NoiseCriterion(String key, String label) {
        this.key = key;
        this.label = label;
    }

    /** The JSON value. */
    public String key() {
        return key;
    }

    /** The name in counts of noisy cases ({@code IQR 40, FMA canary 12}). */
    public String label() {
        return label;
    }

    /** The criterion of a JSON value, or null for none of them. */
    public static NoiseCriterion ofKey(String key) {
        for (NoiseCriterion c : values()) if (c.key.equals(key)) return c;
        return null;
    }

    /**
     * The criterion a reason written before the criterion was kept names ({@code IQR 14% of median},
     * {@code max/min 3.20}, {@code drift 1.31 (...)}, {@code page faults 3.8 per run (...)},
     * {@code FMA canary at 0.57 of its best}): measurements files of before 7 Dec 2026, 17 UTC, only;
     * {@link #NONE} for a quiet case.
     */
    static NoiseCriterion ofLegacyReason(boolean noisy, String reason) {
        String r = reason == null ? "" : reason.strip().toLowerCase(Locale.ROOT);
        if (!noisy || r.isEmpty()) return NONE;
        for (NoiseCriterion c : values()) {
            if (c != NONE && c != OTHER && r.startsWith(c.label.toLowerCase(Locale.ROOT))) return c;
        }
        return OTHER;
    }
}

package dev.sparseprof.sparse.stats;

import dev.sparseprof.util.SparseprofException;

/** How many of a matrix's N:M groups (partial last groups of a row included) obey the pattern. */
public record NmCompliance(NmPattern pattern, long groups, long compliantGroups) {
    public NmCompliance {
        if (groups < 0 || compliantGroups < 0 || compliantGroups > groups) {
            throw new SparseprofException("N:M compliance " + compliantGroups + " of " + groups + " groups");
        }
    }

    /** Fraction of compliant groups; 1.0 for a matrix without groups. */
    public double fraction() {
        return groups == 0 ? 1.0 : (double) compliantGroups / groups;
    }

    /** Every group obeys the pattern: the matrix can be stored in the N:M compressed layout as is. */
    public boolean isCompliant() {
        return compliantGroups == groups;
    }
}

package dev.sparseprof.calibrate;

import java.util.List;

/** Every validated case and the summary of each group, in the order they were run. */
public record ValidationReport(List<ValidationCase> cases, List<ValidationGroup> groups) {
    public ValidationReport {
        cases = List.copyOf(cases);
        groups = List.copyOf(groups);
    }
}

package dev.sparseprof.perfmodel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Runs the published cases and prints predicted vs published. The errors are reported, not
 * asserted small (the model is not tuned to them); what is asserted is the shape the issue asks
 * for: a large 2:4 GEMM gains, never more than 2x, and CSR on CUDA cores crosses dense between
 * 60 % and 90 % sparsity on the LSTM problem.
 */
class PublishedCasesTest {
    @Test
    void publishedCasesRunAndKeepTheirShape() {
        List<PublishedCases.Row> rows = PublishedCases.evaluate(Path.of("validation/published/a100.yaml"));
        for (PublishedCases.Row r : rows) System.out.printf("%-28s %-32s %12s %12s %+.3f%n", r.caseName(), r.metric(), r.published(), r.predicted(), r.error());
        assertEquals(9, rows.size());
        for (PublishedCases.Row r : rows) assertTrue(Double.isFinite(r.error()), r.toString());
        PublishedCases.Row speedup = rows.get(2);
        assertEquals("2:4 speedup", speedup.metric());
        double predicted = Double.parseDouble(speedup.predicted().replace("x", ""));
        assertTrue(predicted > 1.2 && predicted <= 2.0, speedup.toString());
        PublishedCases.Row crossover = rows.get(rows.size() - 1);
        double sparsity = Double.parseDouble(crossover.predicted().replace("%", "")) / 100;
        assertTrue(sparsity > 0.6 && sparsity < 0.9, crossover.toString());
    }
}

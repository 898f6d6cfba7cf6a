package dev.sparseprof.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sparseprof.perfmodel.PublishedCases;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The committed predicted-vs-published tables are what the model prints now (rerun scripts/validate-published.sh after a model change). */
class PublishedReportTest {
    @Test
    void committedTableIsCurrent() throws Exception {
        for (String name : new String[] {"a100", "h100", "crossovers", "spmm"}) {
            String now = PublishedReport.table(PublishedCases.evaluate(Path.of("validation/published/" + name + ".yaml")));
            assertEquals(Files.readString(Path.of("validation/published/" + name + "-predicted.txt")), now, name);
        }
    }
}

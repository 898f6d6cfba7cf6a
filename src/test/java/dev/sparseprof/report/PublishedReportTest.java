package dev.sparseprof.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sparseprof.perfmodel.PublishedCases;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The committed predicted-vs-published table is what the model prints now (rerun scripts/validate-published.sh after a model change). */
class PublishedReportTest {
    @Test
    void committedTableIsCurrent() throws Exception {
        String now = PublishedReport.table(PublishedCases.evaluate(Path.of("validation/published/a100.yaml")));
        assertEquals(Files.readString(Path.of("validation/published/a100-predicted.txt")), now);
    }
}

package dev.sparseprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Outputs.write makes the text only for a target that was given. */
class OutputsTest {
    @TempDir Path dir;

    @Test
    void noTargetNeverMakesTheText() {
        StringWriter printed = new StringWriter();
        Outputs.write(null, () -> fail("the JSON was built although no --json was given"), new PrintWriter(printed));
        assertEquals("", printed.toString());
    }

    @Test
    void aDashPrintsTheTextOnceAndAFileHoldsIt() throws Exception {
        int[] made = {0};
        StringWriter printed = new StringWriter();
        Outputs.write("-", () -> "{\"a\":" + ++made[0] + "}", new PrintWriter(printed));
        assertEquals("{\"a\":1}", printed.toString());
        Path file = dir.resolve("out.json");
        Outputs.write(file.toString(), () -> "{\"a\":" + ++made[0] + "}", new PrintWriter(printed));
        assertEquals("{\"a\":2}", Files.readString(file));
        assertEquals("{\"a\":1}", printed.toString(), "a file target prints nothing");
    }
}

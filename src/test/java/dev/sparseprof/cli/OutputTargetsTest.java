package dev.sparseprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/** Output targets are checked before the work starts: one line, exit 2, nothing printed or left behind. */
class OutputTargetsTest {
    @TempDir Path dir;

    @Test
    @EnabledOnOs(OS.LINUX)
    void anUnwritableJsonTargetFailsBeforeTheTableIsPrinted() {
        // /proc takes no new files, not even from root, so it stands for any folder we may not write.
        ModelCommandsTest.Result r = ModelCommandsTest.run("profile", "--json", "/proc/sparseprof-test.json");
        assertEquals(2, r.code());
        assertEquals("", r.out(), "no table before the failure");
        assertTrue(r.err().startsWith("sparseprof: --json /proc/sparseprof-test.json: cannot write: "), r.err());
        assertFalse(r.err().contains(".part") || r.err().contains(".probe"), "names the target, not a temporary file: " + r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
    }

    @Test
    void aTraceNameWithoutATraceExtensionIsRefused() {
        Path out = dir.resolve("t.txt");
        ModelCommandsTest.Result r = ModelCommandsTest.run("trace", "--layer", "/encoder/layer.0/attention/self/query/MatMul",
                "--format", "csr", "--batch", "2", "--out", out.toString());
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains(".din, .dinx or .sptr"), r.err());
        assertFalse(Files.exists(out));
    }
}

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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Output targets are checked before the work starts, in every command: one line, exit 2, nothing printed or left behind. */
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

    @ParameterizedTest
    @EnabledOnOs(OS.LINUX)
    @ValueSource(strings = {"simulate --hw a100-80gb --html", "compare --hw a100-80gb --formats csr --json",
            "cachesim --trace src/test/resources/dinero/shared_csr_256.din.gz --level L1:32k:8:64 --json",
            "measure --formats csr --batch 4 --json", "validate --json", "calibrate --probe --out"})
    void everyCommandChecksItsOutputBeforeTheWork(String command) {
        String[] args = (command + " /proc/sparseprof-test.out").split(" ");
        ModelCommandsTest.Result r = ModelCommandsTest.run(args);
        assertEquals(2, r.code(), command + ": " + r.err());
        assertEquals("", r.out(), command + ": nothing printed before the failure");
        assertTrue(r.err().contains("/proc/sparseprof-test.out: cannot write: "), command + ": " + r.err());
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

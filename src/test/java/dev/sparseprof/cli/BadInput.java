package dev.sparseprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The bad-input contract, checked on one run of the CLI in-process: exit 2, exactly one line on
 * standard error that starts {@code sparseprof: } and names the file at fault, no stack text, no
 * file left in the output folder, and heap allocated during the run bounded by a constant plus a
 * multiple of the input's real size (a lying length must not be believed before it is checked).
 * A mutant that is still a valid file may instead succeed (exit 0); nothing may exit 1 or throw.
 */
final class BadInput {
    /** Heap a run may allocate beyond {@link #HEAP_PER_INPUT_BYTE} per byte of input: picocli, the JIT's first calls, reports. */
    static final long HEAP_BASE_BYTES = 96L << 20;
    static final long HEAP_PER_INPUT_BYTE = 64;
    private static final com.sun.management.ThreadMXBean THREADS = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private BadInput() {}

    /** What one run gave. */
    record Outcome(String label, int code, String out, String err, long heapBytes) {
        String describe() {
            return label + " -> exit " + code + ", heap " + (heapBytes >> 20) + " MiB, stderr: " + err;
        }
    }

    /** Runs the CLI in-process; any throwable (a StackOverflowError, an OutOfMemoryError) fails the test naming the case. */
    static Outcome run(String label, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        long before = THREADS.getTotalThreadAllocatedBytes();
        int code;
        try {
            code = Main.run(args, new PrintWriter(out), new PrintWriter(err));
        } catch (Throwable t) {
            throw new AssertionError(label + ": the CLI threw " + t + " (" + String.join(" ", args) + ")", t);
        }
        return new Outcome(label, code, out.toString(), err.toString(), THREADS.getTotalThreadAllocatedBytes() - before);
    }

    /**
     * Asserts the contract for a run over {@code input} (whose name, {@code named}, the line must
     * contain) with outputs directed into {@code outFolder}: refused in one line, or, when
     * {@code mayPass}, accepted with about the heap the {@code valid} file's run took.
     */
    static void check(Outcome o, String named, long inputBytes, Path outFolder, boolean mayPass, Outcome valid) {
        if (o.code() == Main.EXIT_OK && mayPass) {
            long limit = HEAP_BASE_BYTES + 2 * valid.heapBytes();
            assertTrue(o.heapBytes() <= limit, "a mutant that reads allocates about what the valid file does (" + (valid.heapBytes() >> 20)
                    + " MiB): " + o.describe());
            return;
        }
        long heapLimit = HEAP_BASE_BYTES + HEAP_PER_INPUT_BYTE * inputBytes;
        assertTrue(o.heapBytes() <= heapLimit, "allocated more heap than the input can justify (limit " + (heapLimit >> 20) + " MiB): "
                + o.describe());
        assertEquals(Main.EXIT_BAD_INPUT, o.code(), o.describe());
        assertOneLine(o, named);
        assertTrue(empty(outFolder), "nothing written on bad input: " + listing(outFolder) + "; " + o.describe());
    }

    /** Exactly one line on standard error, naming {@code named}, with no stack or exception text. */
    static void assertOneLine(Outcome o, String named) {
        String err = o.err();
        assertTrue(err.endsWith("\n") || err.endsWith("\r\n"), "a complete line: " + o.describe());
        assertEquals(1, err.lines().count(), "exactly one line: " + o.describe());
        assertTrue(err.startsWith("sparseprof: "), o.describe());
        assertTrue(err.contains(named), "the line names " + named + ": " + o.describe());
        for (String stack : List.of("Exception", "\tat ", "at dev.", "at java.", "Error:")) {
            assertFalse(err.contains(stack), "no stack text ('" + stack + "'): " + o.describe());
        }
        for (int i = 0; i < err.length() - 1; i++) {
            char c = err.charAt(i);
            if (c < 0x20 || c == 0x7f) fail("control character " + (int) c + " at " + i + " of the line: " + o.describe());
        }
        assertTrue(o.out().isEmpty(), "nothing on standard output: " + o.describe());
    }

    static boolean empty(Path folder) {
        if (!Files.exists(folder)) return true;
        try (Stream<Path> s = Files.list(folder)) {
            return s.findAny().isEmpty();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static String listing(Path folder) {
        try (Stream<Path> s = Files.list(folder)) {
            return s.map(p -> p.getFileName().toString()).toList().toString();
        } catch (IOException e) {
            return folder + " (" + e + ")";
        }
    }
}

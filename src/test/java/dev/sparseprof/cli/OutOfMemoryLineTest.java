package dev.sparseprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** A heap that runs out is one line naming the heap and how to give it more, no stack trace without --verbose. */
class OutOfMemoryLineTest {
    @Test
    void outOfMemoryIsOneLineWithTheHeapAndTheRemedy() {
        StringWriter text = new StringWriter();
        int code = Main.outOfMemory(new OutOfMemoryError("Java heap space"), new PrintWriter(text, true), false);
        assertEquals(Main.EXIT_BUG, code);
        String out = text.toString();
        assertEquals(1, out.lines().count(), out);
        assertTrue(out.startsWith("sparseprof: out of memory (Java heap space) in a heap of "), out);
        assertTrue(out.contains("SPARSEPROF_JAVA_OPTS=-Xmx"), out);
        StringWriter verbose = new StringWriter();
        Main.outOfMemory(new OutOfMemoryError("Java heap space"), new PrintWriter(verbose, true), true);
        assertTrue(verbose.toString().lines().count() > 1, "--verbose adds the stack trace");
    }
}

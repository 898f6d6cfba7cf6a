package dev.sparseprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;
import org.junit.jupiter.api.Test;

/**
 * {@link Main#run} builds only the subcommand it runs; what the user sees is the same as with every
 * subcommand built: the top-level usage, the version, {@code help COMMAND}, an unknown command.
 */
class LazyCommandLineTest {
    private static String[] run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out), new PrintWriter(err));
        return new String[] {String.valueOf(code), out.toString(), err.toString()};
    }

    @Test
    void topLevelUsageIsTheEagerOne() {
        String eager = new CommandLine(new Main()).getUsageMessage();
        for (String[] args : new String[][] {{"--help"}, {"-h"}, {"cachesim"}, {"help", "cachesim"}}) {
            assertEquals(eager, Main.commandLine(args).getUsageMessage(), String.join(" ", args));
        }
        String[] help = run("--help");
        assertEquals("0", help[0]);
        assertEquals(eager, help[1]);
        assertEquals(eager, run("help")[1]);
        assertEquals(eager, run("-h")[1]);
        assertEquals(eager, TopUsage.text(), "the hand-written top-level usage");
    }

    @Test
    void versionIsTheAnnotatedOne() {
        String[] v = run("--version");
        assertEquals("0", v[0]);
        assertEquals(new CommandLine(new Main()).getCommandSpec().version()[0] + System.lineSeparator(), v[1]);
        assertEquals(v[1], run("-V")[1]);
    }

    @Test
    void helpForACommandIsItsFullUsage() {
        String direct = run("cachesim", "--help")[1];
        assertTrue(direct.startsWith("Usage: sparseprof cachesim"), direct);
        assertTrue(direct.contains("--level"), direct);
        assertEquals(direct, run("help", "cachesim")[1]);
        assertEquals(new CommandLine(new Main()).getSubcommands().get("cachesim").getUsageMessage(), direct);
    }

    @Test
    void unknownCommandIsOneLineAndExitTwo() {
        String[] r = run("cachesimm");
        assertEquals("2", r[0]);
        assertTrue(r[2].startsWith("sparseprof: Unmatched argument"), r[2]);
        assertTrue(r[2].contains("cachesim"), "a suggestion: " + r[2]);
    }
}

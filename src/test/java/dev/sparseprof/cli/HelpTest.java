package dev.sparseprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import picocli.CommandLine;
import org.junit.jupiter.api.Test;

/** Every subcommand answers {@code --help} with its usage and exit code 0, whatever options it requires. */
class HelpTest {
    @Test
    void everySubcommandPrintsItsHelp() {
        List<String> names = new CommandLine(new Main()).getSubcommands().keySet().stream()
                .filter(n -> !n.equals("help")).toList();
        assertTrue(names.size() >= 10, "the docs/architecture.md commands are registered: " + names);
        for (String name : names) {
            ModelCommandsTest.Result r = ModelCommandsTest.run(name, "--help");
            assertEquals(0, r.code(), name + " --help: " + r.err());
            assertTrue(r.out().contains("Usage: sparseprof " + name), name + " --help printed: " + r.out());
        }
    }
}

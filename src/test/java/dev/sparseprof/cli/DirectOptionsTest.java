package dev.sparseprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/** {@link DirectOptions} binds cachesim's and profile's arguments as picocli does, and leaves to picocli what it does not handle. */
class DirectOptionsTest {
    /** Every option and positional field of the command and its mixins, as text, in declaration order. */
    private static List<String> values(Object command) throws IllegalAccessException {
        List<String> out = new ArrayList<>();
        for (Field f : command.getClass().getDeclaredFields()) {
            f.setAccessible(true);
            if (f.isAnnotationPresent(CommandLine.Mixin.class)) out.addAll(values(f.get(command)));
            if (f.isAnnotationPresent(Option.class) || f.isAnnotationPresent(CommandLine.Parameters.class)) {
                out.add(f.getName() + "=" + f.get(command));
            }
        }
        return out;
    }

    /** {@code name} followed by {@code args}: a whole command line, as Main hands it to {@link DirectOptions#bind}. */
    private static String[] line(String name, String[] args) {
        String[] full = new String[args.length + 1];
        full[0] = name;
        System.arraycopy(args, 0, full, 1, args.length);
        return full;
    }

    /** Each case binds directly, to the values picocli gives a fresh command. */
    private static void bindsAsPicocli(String name, Supplier<Object> command, String[][] cases) throws IllegalAccessException {
        for (String[] args : cases) {
            Object direct = command.get();
            assertTrue(DirectOptions.bind(direct, line(name, args), 1), String.join(" ", args));
            Object viaPicocli = command.get();
            new CommandLine(viaPicocli).parseArgs(args);
            assertEquals(values(viaPicocli), values(direct), String.join(" ", args));
        }
    }

    /** No case binds directly. */
    private static void leftToPicocli(String name, Supplier<Object> command, String[][] cases) {
        for (String[] args : cases) assertFalse(DirectOptions.bind(command.get(), line(name, args), 1), String.join(" ", args));
    }

    @Test
    void bindsProfileAsPicocliDoes() throws Exception {
        bindsAsPicocli("profile", ProfileCommand::new, new String[][] {
            {"/tmp/model"}, {}, {"--model", "m.onnx"}, {"m.onnx", "--batch", "16", "--json", "-", "--wide"},
            {"--csv=out.csv", "x", "--activation-density", "0.5", "-v"}, {"m", "--input-shape", "a=1x3", "--input-shape", "b=2", "--input-size", "4x4"},
        });
        leftToPicocli("profile", ProfileCommand::new, new String[][] {
            {"a", "b"}, {"@args.txt"}, {"-"}, {"--help"}, {"--batch", "1k"}, {"m", "--"}, {"--bogus"},
        });
    }

    @Test
    void bindsAsPicocliDoes() throws Exception {
        bindsAsPicocli("cachesim", CachesimCommand::new, new String[][] {
            {"--trace", "a.din"},
            {"--trace", "a.din", "--trace=b.din.gz", "--level", "L1:32k:8:64", "--level", "L2:1m:16:64", "--warmup", "1000"},
            {"--hw", "a100", "--trace", "t", "--3c", "--mrc", "--mrc-line", "32,64,128", "-v", "--json", "-"},
            {"--trace", "t", "--access-size=8", "--quantum", "4", "--interleave", "timestamps", "--dram", "ddr5"},
            {"--trace", "t", "--inclusion", "L2=inclusive", "--sectors", "L1=2", "--prefetch", "L1=stride", "--shared-from", "L2"},
            {"--list"},
            {"--warmup", "-5", "--trace", "t"},
            {},
        });
    }

    @Test
    void leavesTheRestToPicocli() {
        leftToPicocli("cachesim", CachesimCommand::new, new String[][] {
            {"--help"}, {"-h"}, {"--version"}, {"--trace"}, {"--bogus"}, {"positional"}, {"--hw", "a", "--hw", "b"},
            {"--warmup", "0x10"}, {"--warmup", "1e3"}, {"--quantum", "99999999999"}, {"--3c=true"}, {"--3c", "--3c"},
            {"--trace", "--level"}, {"--", "--trace"},
        });
    }

    @Test
    void faultsStillGetPicocliMessages() {
        StringWriter err = new StringWriter();
        int code = Main.run(new String[] {"cachesim", "--warmup", "ten"}, new PrintWriter(new StringWriter()),
                new PrintWriter(err));
        assertEquals(Main.EXIT_BAD_INPUT, code);
        assertTrue(err.toString().startsWith("sparseprof: Invalid value for option '--warmup'"), err.toString());
        err = new StringWriter();
        code = Main.run(new String[] {"cachesim", "--level", "L1:32k:8:64"}, new PrintWriter(new StringWriter()),
                new PrintWriter(err));
        assertEquals(Main.EXIT_BAD_INPUT, code);
        assertEquals("sparseprof: cachesim: --trace is required" + System.lineSeparator(), err.toString());
    }
}

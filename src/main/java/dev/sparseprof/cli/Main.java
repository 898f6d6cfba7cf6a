package dev.sparseprof.cli;

import dev.sparseprof.util.SparseprofException;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code sparseprof} command line: wires the library's stages, one subcommand class each.
 * Exit codes: 0 success, 2 bad input or usage (one line on standard error naming the file and the
 * fault; a stack trace only with {@code --verbose}), 1 a bug.
 */
@Command(name = "sparseprof", mixinStandardHelpOptions = true, version = "sparseprof 0.1.0",
        description = "Sparse neural-network model profiling: sparsity, formats, caches, predicted and measured speed.",
        subcommands = {
                ProfileCommand.class, PruneCommand.class, FormatsCommand.class, TraceCommand.class,
                CachesimCommand.class, SimulateCommand.class, CompareCommand.class, MeasureCommand.class,
                CalibrateCommand.class, ValidateCommand.class, AdviseCommand.class, CommandLine.HelpCommand.class})
public final class Main {
    public static final int EXIT_OK = 0;
    public static final int EXIT_BUG = 1;
    public static final int EXIT_BAD_INPUT = 2;

    public static void main(String[] args) {
        System.exit(run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** Runs the CLI with the given streams and returns the exit code (tests call this). */
    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        boolean verbose = false;
        for (String a : args) if (a.equals("--verbose") || a.equals("-v")) verbose = true;
        final boolean showTraces = verbose;
        CommandLine cli = new CommandLine(new Main());
        cli.setOut(out);
        cli.setErr(err);
        cli.setExitCodeExceptionMapper(t -> t instanceof SparseprofException ? EXIT_BAD_INPUT : EXIT_BUG);
        cli.setParameterExceptionHandler((ex, a) -> {
            err.println("sparseprof: " + ex.getMessage());
            err.println("(try: " + ex.getCommandLine().getCommandSpec().qualifiedName() + " --help)");
            return EXIT_BAD_INPUT;
        });
        cli.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            if (ex instanceof SparseprofException) {
                err.println("sparseprof: " + ex.getMessage());
                if (showTraces) ex.printStackTrace(err);
                return EXIT_BAD_INPUT;
            }
            err.println("sparseprof: internal error: " + ex);
            if (showTraces) ex.printStackTrace(err);
            else err.println("(run again with --verbose for the stack trace, and report it)");
            return EXIT_BUG;
        });
        int code = cli.execute(args);
        out.flush();
        err.flush();
        return code;
    }
}

package dev.sparseprof.cli;

import dev.sparseprof.util.SparseprofException;
import java.io.PrintWriter;
import java.util.Arrays;
import java.util.Locale;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IExitCodeExceptionMapper;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * The {@code sparseprof} command line: wires the library's stages, one subcommand class each.
 * Exit codes: 0 success, 2 bad input or usage (one line on standard error naming the file and the
 * fault; a stack trace only with {@code --verbose}), 1 a bug.
 *
 * <p>Start-up: {@link #run} builds in full only the subcommand the arguments name (picocli's
 * reflection over every command's options was most of a short command's time); the others are
 * registered by name and description, which is all the top-level usage shows. This annotation's
 * {@code subcommands} stays the one list of commands. {@code cachesim}, the command scripts call in
 * loops, is run without picocli when {@link DirectOptions} can bind its arguments (picocli then
 * only answers help requests and faults); so is {@code profile}, whose set-up through picocli took
 * about 0.15 s of a 1.8 s scan of a 13.5 GB checkpoint on the Zen 5 VM.
 */
@Command(name = "sparseprof", mixinStandardHelpOptions = true, version = Main.VERSION, description = Main.DESCRIPTION,
        subcommands = {
                ProfileCommand.class, PruneCommand.class, FormatsCommand.class, TraceCommand.class,
                CachesimCommand.class, SimulateCommand.class, CompareCommand.class, MeasureCommand.class,
                CalibrateCommand.class, ValidateCommand.class, AdviseCommand.class, CommandLine.HelpCommand.class})
public final class Main {
    public static final int EXIT_OK = 0;
    public static final int EXIT_BUG = 1;
    public static final int EXIT_BAD_INPUT = 2;
    static final String VERSION = "sparseprof 0.1.0";
    static final String DESCRIPTION = "Sparse neural-network model profiling: sparsity, formats, caches, predicted and measured speed.";

    /** The top-level command without its subcommands, which {@link #commandLine} adds one by one. */
    @Command(name = "sparseprof", mixinStandardHelpOptions = true, version = VERSION, description = DESCRIPTION)
    static final class Top {
    }

    public static void main(String[] args) {
        System.exit(run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** Runs the CLI with the given streams and returns the exit code (tests call this). */
    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        if (args.length == 1 && (args[0].equals("--version") || args[0].equals("-V"))) {
            out.println(VERSION); // without picocli, whose set-up costs a short command most of its time
            out.flush();
            return EXIT_OK;
        }
        if (args.length == 1 && (args[0].equals("--help") || args[0].equals("-h") || args[0].equals("help")) && TopUsage.plain()) {
            out.print(TopUsage.text()); // the same text picocli prints, without building its model
            out.flush();
            return EXIT_OK;
        }
        boolean verbose = false;
        for (String a : args) if (a.equals("--verbose") || a.equals("-v")) verbose = true;
        RunsDirect direct = args.length == 0 ? null : switch (args[0]) {
            case "cachesim" -> new CachesimCommand();
            case "profile" -> new ProfileCommand();
            default -> null;
        };
        if (direct != null && DirectOptions.bind(direct, args, 1)) {
            int code; // as picocli's execute: the command's code, or the handler's for what it threw
            try {
                code = direct.call(out);
            } catch (Exception e) {
                code = failed(e, err, verbose);
            } catch (OutOfMemoryError e) {
                code = outOfMemory(e, err, verbose);
            }
            out.flush();
            err.flush();
            return code;
        }
        CommandLine cli = commandLine(args);
        cli.setOut(out);
        cli.setErr(err);
        Handlers handlers = new Handlers(err, verbose);
        cli.setExitCodeExceptionMapper(handlers);
        cli.setParameterExceptionHandler(handlers);
        cli.setExecutionExceptionHandler(handlers);
        int code;
        try {
            code = cli.execute(args);
        } catch (OutOfMemoryError e) {
            code = outOfMemory(e, err, verbose);
        }
        out.flush();
        err.flush();
        return code;
    }

    /**
     * The command line for these arguments: the subcommand they name (after {@code help}, the one
     * it asks about) built from its annotations, every other one a placeholder with the name,
     * aliases, header, description and visibility of its {@code @Command}, so the top-level usage is
     * the same text as the eager {@code new CommandLine(new Main())} gives.
     */
    static CommandLine commandLine(String[] args) {
        int at = firstName(args, 0);
        String wanted = at < args.length ? args[at] : "";
        String helpFor = "";
        if (wanted.equals("help")) {
            int next = firstName(args, at + 1);
            if (next < args.length) helpFor = args[next];
        }
        CommandLine cli = new CommandLine(new Top());
        for (Class<?> c : Main.class.getAnnotation(Command.class).subcommands()) {
            Command a = c.getAnnotation(Command.class);
            if (names(a, wanted) || names(a, helpFor)) {
                cli.addSubcommand(a.name(), c);
            } else {
                CommandSpec placeholder = CommandSpec.create().aliases(a.aliases());
                placeholder.usageMessage().header(a.header()).description(a.description()).hidden(a.hidden());
                cli.addSubcommand(a.name(), placeholder);
            }
        }
        return cli;
    }

    private static boolean names(Command a, String name) {
        return a.name().equals(name) || Arrays.asList(a.aliases()).contains(name);
    }

    /** The index of the first argument from {@code from} on that is not an option (the subcommand's name), or the length. */
    private static int firstName(String[] args, int from) {
        for (int i = from; i < args.length; i++) if (!args[i].startsWith("-")) return i;
        return args.length;
    }

    /** Exit codes and messages for bad input and bugs (a class, not lambdas: no lambda bootstrap at start-up). */
    private static final class Handlers implements IExitCodeExceptionMapper, IParameterExceptionHandler, IExecutionExceptionHandler {
        private final PrintWriter err;
        private final boolean showTraces;

        Handlers(PrintWriter err, boolean showTraces) {
            this.err = err;
            this.showTraces = showTraces;
        }

        @Override
        public int getExitCode(Throwable t) {
            return t instanceof SparseprofException ? EXIT_BAD_INPUT : EXIT_BUG;
        }

        @Override
        public int handleParseException(ParameterException ex, String[] args) {
            err.println("sparseprof: " + oneLine(ex.getMessage()));
            err.println("(try: " + ex.getCommandLine().getCommandSpec().qualifiedName() + " --help)");
            return EXIT_BAD_INPUT;
        }

        @Override
        public int handleExecutionException(Exception ex, CommandLine commandLine, ParseResult parseResult) {
            return failed(ex, err, showTraces);
        }
    }

    /**
     * The JVM's heap ran out: one line with the heap's size and how to give it more (the launcher's
     * {@code SPARSEPROF_JAVA_OPTS}, default {@code -Xmx8g}), exit {@link #EXIT_BUG}: the commands are
     * meant to stay within a bound a model's size does not set, so this is ours to fix too.
     */
    static int outOfMemory(OutOfMemoryError e, PrintWriter err, boolean showTraces) {
        err.println(String.format(Locale.ROOT, "sparseprof: out of memory (%s) in a heap of %.1f GiB; give the JVM more with "
                + "SPARSEPROF_JAVA_OPTS=-Xmx<size>, and report the command", oneLine(String.valueOf(e.getMessage())),
                Runtime.getRuntime().maxMemory() / (double) (1L << 30)));
        if (showTraces) e.printStackTrace(err);
        return EXIT_BUG;
    }

    /** What a command that threw prints, and its exit code: one line for bad input, a trace only when asked. */
    private static int failed(Exception ex, PrintWriter err, boolean showTraces) {
        if (ex instanceof SparseprofException) {
            err.println("sparseprof: " + oneLine(ex.getMessage()));
            if (showTraces) ex.printStackTrace(err);
            return EXIT_BAD_INPUT;
        }
        err.println("sparseprof: internal error: " + oneLine(String.valueOf(ex)));
        if (showTraces) ex.printStackTrace(err);
        else err.println("(run again with --verbose for the stack trace, and report it)");
        return EXIT_BUG;
    }

    /**
     * {@code message} as one printable line: a message quotes names and text from the file at
     * fault, which may hold line breaks, control characters or terminal escapes, so every C0/C1
     * control character, DEL and the Unicode line and paragraph separators become {@code \n},
     * {@code \r}, {@code \t} or a backslash, {@code u} and four hex digits; a backslash already in
     * the message stays as it is (paths on Windows).
     */
    static String oneLine(String message) {
        if (message == null) return "";
        StringBuilder b = null;
        for (int i = 0; i < message.length(); i++) {
            char c = message.charAt(i);
            boolean control = c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == '\u2028' || c == '\u2029';
            if (!control) {
                if (b != null) b.append(c);
                continue;
            }
            if (b == null) b = new StringBuilder(message.length() + 16).append(message, 0, i);
            switch (c) {
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> b.append(String.format("\\u%04x", (int) c));
            }
        }
        return b == null ? message : b.toString();
    }
}

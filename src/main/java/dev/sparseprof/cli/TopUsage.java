package dev.sparseprof.cli;

import java.io.Console;
import picocli.CommandLine.Command;

/**
 * The top-level usage ({@code sparseprof --help}) written from the commands' {@code @Command}
 * annotations without building picocli's model, in picocli's plain layout (80 columns): the same
 * text as {@code new CommandLine(new Main()).getUsageMessage()} (LazyCommandLineTest). Used only
 * where picocli would print no ANSI styles ({@link #plain}); elsewhere picocli renders it.
 */
final class TopUsage {
    private static final int WIDTH = 79; // picocli's 80-column layout leaves the last column empty
    private static final int INDENT = 2;

    private TopUsage() {}

    /** True when picocli's ANSI "auto" mode would print no styles: no terminal and no forced colour. */
    static boolean plain() {
        Console c = System.console();
        return (c == null || !c.isTerminal()) && System.getProperty("picocli.ansi") == null && System.getenv("CLICOLOR_FORCE") == null;
    }

    static String text() {
        Command top = Main.class.getAnnotation(Command.class);
        String nl = System.lineSeparator();
        StringBuilder b = new StringBuilder();
        b.append("Usage: ").append(top.name()).append(" [-hV] [COMMAND]").append(nl);
        for (String d : top.description()) wrap(b, d, 0, 0);
        // the two lines mixinStandardHelpOptions adds, in picocli's wording
        b.append("  -h, --help      Show this help message and exit.").append(nl);
        b.append("  -V, --version   Print version information and exit.").append(nl);
        b.append("Commands:").append(nl);
        Class<?>[] subs = top.subcommands();
        Command[] commands = new Command[subs.length];
        int nameWidth = 0;
        for (int i = 0; i < subs.length; i++) {
            commands[i] = subs[i].getAnnotation(Command.class);
            nameWidth = Math.max(nameWidth, commands[i].name().length());
        }
        int column = INDENT + nameWidth + 2;
        for (Command c : commands) {
            if (c.hidden()) continue;
            b.append(" ".repeat(INDENT)).append(c.name()).append(" ".repeat(column - INDENT - c.name().length()));
            String[] lines = c.header().length > 0 ? c.header() : c.description();
            wrap(b, lines.length > 0 ? lines[0] : "", column, column + 2);
        }
        return b.toString();
    }

    /** Appends {@code text} word-wrapped to {@link #WIDTH}; the cursor stands at {@code first}, later lines start at {@code next}. */
    private static void wrap(StringBuilder b, String text, int first, int next) {
        int at = first;
        boolean lineEmpty = true;
        for (String word : text.split(" ")) {
            if (!lineEmpty && at + 1 + word.length() > WIDTH) {
                b.append(System.lineSeparator()).append(" ".repeat(next));
                at = next;
                lineEmpty = true;
            }
            if (!lineEmpty) {
                b.append(' ');
                at++;
            }
            b.append(word);
            at += word.length();
            lineEmpty = false;
        }
        b.append(System.lineSeparator());
    }
}

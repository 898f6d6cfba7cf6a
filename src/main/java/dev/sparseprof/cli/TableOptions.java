package dev.sparseprof.cli;

import picocli.CommandLine.Option;

/** How wide a command's text table may be; mixed in with {@code @Mixin}. Tables fit 120 columns unless {@code --wide}. */
final class TableOptions {
    @Option(names = "--wide", description = "Show every column of the table (by default it fits 120 columns and names what it leaves out).")
    boolean wide;
}

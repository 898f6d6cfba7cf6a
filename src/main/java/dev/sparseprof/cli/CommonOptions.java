package dev.sparseprof.cli;

import picocli.CommandLine.Option;

/** Options every subcommand takes; mixed in with {@code @Mixin}. */
final class CommonOptions {
    @Option(names = {"-v", "--verbose"}, description = "Print stack traces for errors.")
    boolean verbose;
}

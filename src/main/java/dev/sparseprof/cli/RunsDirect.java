package dev.sparseprof.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

/**
 * A subcommand {@link Main} may run without picocli: {@link DirectOptions} binds its options from
 * their annotations, then {@link #call(PrintWriter)} runs it. Contract: {@code call(out)} does what
 * picocli's {@code call()} does with {@code out} as the command line's standard output, and needs
 * no {@code @Spec} (which stays null on that path).
 */
interface RunsDirect extends Callable<Integer> {
    int call(PrintWriter out) throws Exception;
}

package dev.sparseprof.cli;

import dev.sparseprof.util.SparseprofException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code sparseprof compare}: not built yet. */
@Command(name = "compare", description = "(not built yet)")
final class CompareCommand implements Callable<Integer> {
    @Mixin CommonOptions common;

    @Override
    public Integer call() {
        throw new SparseprofException("compare: not built yet");
    }
}

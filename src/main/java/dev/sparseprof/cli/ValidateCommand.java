package dev.sparseprof.cli;

import dev.sparseprof.util.SparseprofException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code sparseprof validate}: not built yet. */
@Command(name = "validate", description = "(not built yet)")
final class ValidateCommand implements Callable<Integer> {
    @Mixin CommonOptions common;

    @Override
    public Integer call() {
        throw new SparseprofException("validate: not built yet");
    }
}

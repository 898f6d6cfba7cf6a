package dev.sparseprof.cli;

import dev.sparseprof.util.SparseprofException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code sparseprof formats}: not built yet. */
@Command(name = "formats", description = "(not built yet)")
final class FormatsCommand implements Callable<Integer> {
    @Mixin CommonOptions common;

    @Override
    public Integer call() {
        throw new SparseprofException("formats: not built yet");
    }
}

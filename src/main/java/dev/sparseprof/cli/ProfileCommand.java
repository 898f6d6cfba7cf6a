package dev.sparseprof.cli;

import dev.sparseprof.util.SparseprofException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code sparseprof profile}: not built yet. */
@Command(name = "profile", description = "(not built yet)")
final class ProfileCommand implements Callable<Integer> {
    @Mixin CommonOptions common;

    @Override
    public Integer call() {
        throw new SparseprofException("profile: not built yet");
    }
}

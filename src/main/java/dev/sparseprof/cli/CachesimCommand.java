package dev.sparseprof.cli;

import dev.sparseprof.util.SparseprofException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code sparseprof cachesim}: not built yet. */
@Command(name = "cachesim", description = "(not built yet)")
final class CachesimCommand implements Callable<Integer> {
    @Mixin CommonOptions common;

    @Override
    public Integer call() {
        throw new SparseprofException("cachesim: not built yet");
    }
}

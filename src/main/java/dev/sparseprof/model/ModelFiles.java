package dev.sparseprof.model;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.function.Function;

/**
 * File access shared by the readers: whole-file memory maps through an {@link Arena} (one segment,
 * so files over 2 GiB work), and resolution of file references found inside a model (ONNX external
 * data, TF.js shards) that must stay inside the model's folder.
 */
final class ModelFiles {
    private ModelFiles() {}

    /**
     * Runs a reader's body with a fresh shared arena that the returned model owns; when the body
     * fails, the arena (and every mapping made in it) is closed before the error goes on.
     */
    static Model inArena(Function<Arena, Model> body) {
        Arena arena = Arena.ofShared();
        try {
            return body.apply(arena);
        } catch (RuntimeException | Error e) {
            arena.close();
            throw e;
        }
    }

    /** True when the file's name ends with {@code suffix}, ignoring case. */
    static boolean nameEndsWith(Path file, String suffix) {
        return file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(suffix);
    }

    /** Maps {@code file} read-only; its lifetime is the arena's. An empty file is an empty segment. */
    static MemorySegment map(Path file, Arena arena) {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            if (size == 0) return MemorySegment.ofArray(new byte[0]);
            MemorySegment mapped = ch.map(FileChannel.MapMode.READ_ONLY, 0, size, arena);
            PagePopulate.mapped(mapped);
            if (PagePopulate.readsFiles()) FileWindows.register(file, mapped, arena);
            return mapped;
        } catch (NoSuchFileException e) {
            throw ModelFormatException.in(file, "no such file");
        } catch (IOException e) {
            throw ModelFormatException.in(file, "cannot read (" + e.getMessage() + ")");
        }
    }

    static long size(Path file) {
        try {
            return Files.size(file);
        } catch (NoSuchFileException e) {
            throw ModelFormatException.in(file, "no such file");
        } catch (IOException e) {
            throw ModelFormatException.in(file, "cannot read (" + e.getMessage() + ")");
        }
    }

    /**
     * Resolves {@code location}, a path written inside {@code source}, against {@code folder}, and
     * refuses anything that leaves the folder: absolute paths, {@code ..} segments, and symbolic
     * links (of the file or a folder on the way) whose target lies outside, save the links of a
     * Hugging Face hub cache snapshot into its repository's {@code blobs} ({@link #inHubCacheBlobs}).
     */
    /**
     * Whether {@code real} is a blob of the Hugging Face hub cache that {@code realFolder} is a
     * snapshot (or a folder inside one) of: the cache keeps each file once in
     * {@code models--ORG--NAME/blobs/HASH} and links it from {@code models--ORG--NAME/snapshots/REVISION/NAME}
     * (huggingface_hub's cache layout), so every shard of a cached checkpoint links out of its
     * snapshot folder, into that one sibling {@code blobs} folder and nowhere else.
     */
    static boolean inHubCacheBlobs(Path realFolder, Path real) {
        for (Path revision = realFolder; revision != null && revision.getParent() != null; revision = revision.getParent()) {
            Path snapshots = revision.getParent();
            if (snapshots.getFileName() != null && snapshots.getFileName().toString().equals("snapshots") && snapshots.getParent() != null) {
                return real.getParent() != null && real.getParent().equals(snapshots.getParent().resolve("blobs"));
            }
        }
        return false;
    }

    static Path confined(Object source, Path folder, String location) {
        if (location == null || location.isEmpty()) throw ModelFormatException.in(source, "empty file reference");
        if (location.indexOf('\0') >= 0) throw ModelFormatException.in(source, "file reference contains a NUL byte");
        String normal = location.replace('\\', '/');
        if (normal.startsWith("/") || normal.matches("^[A-Za-z]:.*")) {
            throw ModelFormatException.in(source, "refusing absolute file reference '" + location + "' (must stay inside " + folder + ")");
        }
        for (String part : normal.split("/")) {
            if (part.equals("..")) {
                throw ModelFormatException.in(source, "refusing file reference '" + location + "' with '..' (must stay inside " + folder + ")");
            }
        }
        Path resolved = folder.resolve(normal).normalize();
        try {
            Path realFolder = folder.toRealPath();
            if (!Files.exists(resolved, LinkOption.NOFOLLOW_LINKS)) {
                throw ModelFormatException.in(source, "referenced file '" + location + "' does not exist in " + folder);
            }
            Path real = resolved.toRealPath();
            if (!real.startsWith(realFolder) && !inHubCacheBlobs(realFolder, real)) {
                throw ModelFormatException.in(source, "refusing file reference '" + location + "': it links to " + real
                        + ", outside " + realFolder);
            }
            if (!Files.isRegularFile(real)) throw ModelFormatException.in(source, "referenced '" + location + "' is not a file");
            return real;
        } catch (IOException e) {
            throw ModelFormatException.in(source, "cannot resolve file reference '" + location + "' (" + e.getMessage() + ")");
        }
    }
}

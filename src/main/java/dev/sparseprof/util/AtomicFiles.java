package dev.sparseprof.util;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Locale;

/**
 * Output files are written whole or not at all: the bytes go to a temporary file beside the target,
 * which is moved into place only when everything succeeded. A failure leaves no partial file.
 */
public final class AtomicFiles {
    private AtomicFiles() {}

    /** Writes through {@code body} into {@code target} atomically. */
    public static void write(Path target, IoBody body) {
        writeVia(target, tmp -> {
            try (OutputStream out = Files.newOutputStream(tmp)) {
                body.writeTo(out);
            }
        });
    }

    /**
     * Writes through {@code body}, given the temporary file's channel (positional and large
     * sequential writes, several threads at once), into {@code target} atomically.
     */
    public static void writeChannel(Path target, ChannelBody body) {
        writeVia(target, tmp -> {
            try (FileChannel channel = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
                body.writeTo(channel);
            }
        });
    }

    private static void writeVia(Path target, TempBody body) {
        Path abs = target.toAbsolutePath();
        Path dir = abs.getParent();
        Path tmp = null;
        try {
            if (dir != null && !Files.isDirectory(dir)) {
                throw new SparseprofException(target + ": folder " + dir + " does not exist");
            }
            if (Files.isDirectory(abs)) throw new SparseprofException(target + ": is a folder, not a file (nothing is written over a folder)");
            tmp = Files.createTempFile(dir, "." + abs.getFileName(), ".part");
            // createTempFile makes the file owner-only (0600); an output file is an ordinary file.
            setOrdinaryPermissions(tmp);
            body.writeTo(tmp);
            try {
                Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING);
            }
            tmp = null;
        } catch (IOException e) {
            throw new SparseprofException(target + ": cannot write: " + reason(e), e);
        } finally {
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    // the temporary file is best-effort cleanup; the error that matters is already thrown
                }
            }
        }
    }

    /**
     * Fails now, before any long work, when {@code target} could not be written at the end: its
     * folder is missing, or a file cannot be created there (read-only, permission, /proc). Probes by
     * creating and deleting a temporary file beside the target.
     */
    public static void checkWritable(Path target) {
        Path dir = target.toAbsolutePath().getParent();
        if (dir != null && !Files.isDirectory(dir)) {
            throw new SparseprofException(target + ": folder " + dir + " does not exist");
        }
        if (Files.isDirectory(target)) throw new SparseprofException(target + ": is a folder, not a file (nothing is written over a folder)");
        try {
            Files.delete(Files.createTempFile(dir, "." + target.getFileName(), ".probe"));
        } catch (IOException e) {
            throw new SparseprofException(target + ": cannot write: " + reason(e), e);
        }
    }

    /** The OS's reason in words ("Permission denied", "Read-only file system"), not the temp file's name. */
    private static String reason(IOException e) {
        if (e instanceof FileSystemException fse) {
            if (fse.getReason() != null) return fse.getReason();
            if (e instanceof AccessDeniedException) return "permission denied";
            if (e instanceof NoSuchFileException) return "no such file or folder";
            return e.getClass().getSimpleName().replace("Exception", "").toLowerCase(Locale.ROOT);
        }
        return String.valueOf(e.getMessage());
    }

    private static void setOrdinaryPermissions(Path file) throws IOException {
        if (file.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        }
    }

    public static void writeString(Path target, String text) {
        write(target, out -> out.write(text.getBytes(StandardCharsets.UTF_8)));
    }

    /** The part of a write that produces the bytes. */
    @FunctionalInterface
    public interface IoBody {
        void writeTo(OutputStream out) throws IOException;
    }

    /** The part of a write that produces the bytes, through the temporary file's channel. */
    @FunctionalInterface
    public interface ChannelBody {
        void writeTo(FileChannel channel) throws IOException;
    }

    @FunctionalInterface
    private interface TempBody {
        void writeTo(Path tmp) throws IOException;
    }
}

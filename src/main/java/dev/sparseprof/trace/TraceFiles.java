package dev.sparseprof.trace;

import dev.sparseprof.util.AtomicFiles;
import dev.sparseprof.util.SparseprofException;
import java.io.BufferedInputStream;
import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.function.Consumer;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * Opening and writing trace files. Reading detects the format from the bytes, not the name: gzip by
 * its magic (0x1f 0x8b), then the binary format by its magic, else Dinero text (classic or
 * extended, per line). Writing picks the format from the name: {@code .sptr} binary,
 * {@code .dinx} extended din, anything else classic din; a trailing {@code .gz} gzips it. Files
 * are written whole or not at all.
 */
public final class TraceFiles {
    private TraceFiles() {}

    /** Closes a read stream; nothing is lost when that fails. */
    static void closeQuietly(InputStream in) {
        try {
            in.close();
        } catch (IOException ignored) {
            // a read stream: nothing to lose
        }
    }

    /** The on-disk formats. */
    public enum Format { DIN, DIN_EXTENDED, BINARY }

    /** Opens {@code path} for streaming; {@code defaultSizeBytes} is the access size of classic din records. */
    public static TraceReader open(Path path, int defaultSizeBytes) {
        String source = path.toString();
        try {
            CountingInputStream raw = new CountingInputStream(Files.newInputStream(path));
            InputStream in = new BufferedInputStream(raw, 1 << 16);
            try {
                // gzip: inflated on a thread of its own, ahead of the parser
                if (startsWith(in, new byte[] {0x1f, (byte) 0x8b})) {
                    in = new BufferedInputStream(new ReadAheadInputStream(new GZIPInputStream(in, 1 << 16), source), 1 << 16);
                }
                if (startsWith(in, BinaryTraceFormat.MAGIC)) return new BinaryTraceReader(in, source, raw::count);
                return new DinTextReader(in, source, defaultSizeBytes, raw::count);
            } catch (IOException | RuntimeException e) {
                in.close();
                throw e;
            }
        } catch (NoSuchFileException e) {
            throw new SparseprofException(source + ": no such file");
        } catch (IOException e) {
            throw new TraceFormatException(source + ": cannot read (" + e.getMessage() + ")", e);
        }
    }

    public static TraceReader open(Path path) {
        return open(path, 4);
    }

    private static boolean startsWith(InputStream in, byte[] magic) throws IOException {
        in.mark(magic.length);
        try {
            for (byte b : magic) if (in.read() != (b & 0xff)) return false;
            return true;
        } finally {
            in.reset();
        }
    }

    /**
     * The format a trace written to {@code path} gets, from its extension ({@code .din}, {@code .dinx},
     * {@code .sptr}, each optionally {@code .gz}); any other name is refused rather than silently
     * written as din. (Readers go by the bytes, not the name.)
     */
    public static Format formatForName(Path path) {
        String name = path.getFileName().toString();
        if (name.endsWith(".gz")) name = name.substring(0, name.length() - 3);
        if (name.endsWith(".sptr")) return Format.BINARY;
        if (name.endsWith(".dinx")) return Format.DIN_EXTENDED;
        if (name.endsWith(".din")) return Format.DIN;
        throw new SparseprofException(path + ": name the trace format by the extension: .din, .dinx or .sptr (each optionally .gz)");
    }

    /** A sink that writes {@code format} to {@code out}; closing it closes {@code out}. */
    public static TraceSink writer(OutputStream out, Format format) {
        return switch (format) {
            case DIN -> new DinTextWriter(out, false);
            case DIN_EXTENDED -> new DinTextWriter(out, true);
            case BINARY -> new BinaryTraceWriter(out);
        };
    }

    /** Writes the accesses {@code producer} pushes into {@code path} atomically, format by name. */
    public static void write(Path path, Consumer<TraceSink> producer) {
        Format format = formatForName(path);
        boolean gzip = path.getFileName().toString().endsWith(".gz");
        AtomicFiles.write(path, out -> {
            OutputStream target = gzip ? new GZIPOutputStream(new NonClosing(out), 1 << 16) : new NonClosing(out);
            TraceSink sink = writer(target, format);
            try {
                producer.accept(sink);
                sink.close();
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
        });
    }

    /** Lets a writer "close" the stream AtomicFiles owns. */
    private static final class NonClosing extends FilterOutputStream {
        NonClosing(OutputStream out) {
            super(out);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
        }

        @Override
        public void close() throws IOException {
            flush();
        }
    }

    /** Counts the bytes read from the file, for progress. */
    private static final class CountingInputStream extends FilterInputStream {
        private long count;

        CountingInputStream(InputStream in) {
            super(in);
        }

        long count() {
            return count;
        }

        @Override
        public int read() throws IOException {
            int b = in.read();
            if (b >= 0) count++;
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = in.read(b, off, len);
            if (n > 0) count += n;
            return n;
        }
    }
}

package dev.sparseprof.trace;

import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * An input stream that reads its inner stream on a thread of its own, up to {@value #DEPTH} blocks
 * of {@value #BLOCK_BYTES} bytes ahead: for gzip, inflation then overlaps the parsing that
 * consumes its bytes. Bytes come out in order and unchanged; an {@link IOException} of the inner
 * stream is thrown by the read that reaches it, after every byte before it. Memory: about
 * {@code DEPTH + 2} blocks.
 */
final class ReadAheadInputStream extends InputStream {
    private static final int BLOCK_BYTES = 1 << 20;
    private static final int DEPTH = 4;
    private static final Filled END = new Filled(new byte[0], 0);

    /** A block and how many of its bytes the thread read. */
    private record Filled(byte[] bytes, int length) {}

    private final InputStream inner;
    private final BlockingQueue<Filled> full = new ArrayBlockingQueue<>(DEPTH + 1);
    private final BlockingQueue<byte[]> empty = new ArrayBlockingQueue<>(DEPTH + 1);
    private final Thread thread;
    private volatile IOException failure;
    private byte[] block;
    private int pos;
    private int limit;
    private boolean over;

    ReadAheadInputStream(InputStream inner, String name) {
        this.inner = inner;
        for (int i = 0; i < DEPTH + 1; i++) empty.add(new byte[BLOCK_BYTES]);
        thread = new Thread(this::readAhead, "read-ahead " + name);
        thread.setDaemon(true);
        thread.start();
    }

    private void readAhead() {
        try {
            while (true) {
                byte[] b = empty.take();
                int n = 0;
                try {
                    int r;
                    while (n < b.length && (r = inner.read(b, n, b.length - n)) >= 0) n += r;
                } catch (IOException e) {
                    failure = e;
                } catch (RuntimeException e) {
                    failure = new IOException(e.toString(), e);
                }
                if (n > 0) full.put(new Filled(b, n));
                if (n < b.length) { // end of the stream, or its fault
                    full.put(END);
                    return;
                }
            }
        } catch (InterruptedException e) {
            // closed early: nobody reads on
        }
    }

    /** Makes bytes available; false at the end (after throwing the inner stream's fault, if any). */
    private boolean next() throws IOException {
        if (over) return false;
        if (block != null) empty.add(block);
        Filled f;
        try {
            f = full.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while reading", e);
        }
        pos = 0;
        limit = f.length;
        block = f == END ? null : f.bytes;
        if (f != END) return true;
        over = true;
        if (failure != null) throw failure;
        return false;
    }

    @Override
    public int read() throws IOException {
        if (pos == limit && !next()) return -1;
        return block[pos++] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        if (len == 0) return 0;
        if (pos == limit && !next()) return -1;
        int n = Math.min(len, limit - pos);
        System.arraycopy(block, pos, b, off, n);
        pos += n;
        return n;
    }

    /** Stops the thread, then closes the inner stream. */
    @Override
    public void close() throws IOException {
        boolean interrupted = ReadAheadReader.stop(thread);
        inner.close();
        if (interrupted) Thread.currentThread().interrupt();
    }
}

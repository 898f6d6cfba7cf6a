package dev.sparseprof.memsim;

/** A count split into reads and writes. */
public record ReadWrite(long read, long write) {
    public static final ReadWrite ZERO = new ReadWrite(0, 0);

    public ReadWrite {
        if (read < 0 || write < 0) throw new IllegalArgumentException("negative count " + read + "/" + write);
    }

    public long total() {
        return read + write;
    }

    public ReadWrite minus(ReadWrite o) {
        return new ReadWrite(read - o.read, write - o.write);
    }
}

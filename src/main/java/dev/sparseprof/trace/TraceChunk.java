package dev.sparseprof.trace;

import java.util.Arrays;

/**
 * A batch of accesses in parallel primitive arrays, the unit in which {@link TraceReader}s hand
 * records over (a reader fills it, the caller drains it). The caller owns it and reuses it, so
 * replaying a trace allocates nothing per access.
 *
 * <p>Invariant: entries {@code [0, size)} are valid; {@code kinds[i]} is an {@link AccessKind}
 * ordinal, {@code roles[i]} an {@link ArrayRole} ordinal, {@code sizes[i] >= 1};
 * {@code timestamps[i]} is the record's time where its trace carries one (0 where it does not):
 * the array is only written once a record with a time is added ({@code timed}), so untimed traces
 * (din text) store nothing there; until then {@link #timestamp} reads 0.
 */
public final class TraceChunk {
    public static final int DEFAULT_CAPACITY = 4096;

    private final long[] addresses;
    private final int[] sizes;
    private final byte[] kinds;
    private final byte[] roles;
    private final long[] timestamps;
    private int size;
    private boolean timed; // some record in [0, size) was added with a time: timestamps[0, size) are valid

    public TraceChunk() {
        this(DEFAULT_CAPACITY);
    }

    public TraceChunk(int capacity) {
        if (capacity < 1) throw new IllegalArgumentException("capacity " + capacity);
        addresses = new long[capacity];
        sizes = new int[capacity];
        kinds = new byte[capacity];
        roles = new byte[capacity];
        timestamps = new long[capacity];
    }

    public int capacity() {
        return addresses.length;
    }

    public int size() {
        return size;
    }

    public boolean isFull() {
        return size == addresses.length;
    }

    public void clear() {
        size = 0;
        timed = false;
    }

    /** Makes this chunk a copy of {@code other}'s records (this chunk's capacity must hold them). */
    public void copyFrom(TraceChunk other) {
        int n = other.size;
        System.arraycopy(other.addresses, 0, addresses, 0, n);
        System.arraycopy(other.sizes, 0, sizes, 0, n);
        System.arraycopy(other.kinds, 0, kinds, 0, n);
        System.arraycopy(other.roles, 0, roles, 0, n);
        if (other.timed) System.arraycopy(other.timestamps, 0, timestamps, 0, n);
        timed = other.timed;
        size = n;
    }

    /** Appends one record (timestamp 0); the caller checks {@link #isFull()} first. */
    public void add(AccessKind kind, long address, int sizeBytes, ArrayRole role) {
        int i = size++;
        addresses[i] = address;
        sizes[i] = sizeBytes;
        kinds[i] = (byte) kind.ordinal();
        roles[i] = (byte) role.ordinal();
        if (timed) timestamps[i] = 0;
    }

    /** Appends one record with its time; the caller checks {@link #isFull()} first. */
    public void add(AccessKind kind, long address, int sizeBytes, ArrayRole role, long timestamp) {
        int i = size;
        add(kind, address, sizeBytes, role);
        if (!timed) {
            Arrays.fill(timestamps, 0, i, 0L); // the records before it had none: time 0
            timed = true;
        }
        timestamps[i] = timestamp;
    }

    /**
     * For a reader that writes runs of records straight into the arrays: the address and kind
     * arrays, whose entries from {@link #size()} on it may set, then {@link #appendRun} to take them.
     */
    long[] addressArray() {
        return addresses;
    }

    byte[] kindArray() {
        return kinds;
    }

    /**
     * Takes entries {@code [size(), to)} of {@link #addressArray()} and {@link #kindArray()}, which
     * the caller has set, as records of {@code sizeBytes} and {@code role} (time 0): their sizes and
     * roles are written here, a run at a time, instead of record by record.
     */
    void appendRun(int to, int sizeBytes, ArrayRole role) {
        int from = size;
        Arrays.fill(sizes, from, to, sizeBytes);
        Arrays.fill(roles, from, to, (byte) role.ordinal());
        if (timed) Arrays.fill(timestamps, from, to, 0L);
        size = to;
    }

    public long address(int i) {
        return addresses[i];
    }

    public long timestamp(int i) {
        return timed ? timestamps[i] : 0;
    }

    public int sizeBytes(int i) {
        return sizes[i];
    }

    public AccessKind kind(int i) {
        return AccessKinds.BY_ORDINAL[kinds[i]];
    }

    public ArrayRole role(int i) {
        return AccessKinds.ROLES[roles[i]];
    }

    /** Pushes entries {@code [from, to)} into {@code sink}. */
    public void pushTo(TraceSink sink, int from, int to) {
        for (int i = from; i < to; i++) {
            sink.access(AccessKinds.BY_ORDINAL[kinds[i]], addresses[i], sizes[i], AccessKinds.ROLES[roles[i]]);
        }
    }
}

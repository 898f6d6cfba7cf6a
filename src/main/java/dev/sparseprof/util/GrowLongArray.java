package dev.sparseprof.util;

import java.util.Arrays;

/** A growable {@code long[]} without boxing; {@link #toArray()} trims to size. */
public final class GrowLongArray {
    private long[] data;
    private int size;

    public GrowLongArray() {
        this(16);
    }

    public GrowLongArray(int initialCapacity) {
        data = new long[Math.max(1, initialCapacity)];
    }

    public void add(long value) {
        if (size == data.length) data = Arrays.copyOf(data, Math.max(16, data.length + (data.length >> 1)));
        data[size++] = value;
    }

    public long get(int index) {
        if (index >= size) throw new IndexOutOfBoundsException(index + " >= " + size);
        return data[index];
    }

    public int size() {
        return size;
    }

    public void clear() {
        size = 0;
    }

    public long[] toArray() {
        return Arrays.copyOf(data, size);
    }
}

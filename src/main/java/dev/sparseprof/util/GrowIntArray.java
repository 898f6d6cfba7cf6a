package dev.sparseprof.util;

import java.util.Arrays;

/** A growable {@code int[]} without boxing; {@link #toArray()} trims to size. */
public final class GrowIntArray {
    private int[] data;
    private int size;

    public GrowIntArray() {
        this(16);
    }

    public GrowIntArray(int initialCapacity) {
        data = new int[Math.max(1, initialCapacity)];
    }

    public void add(int value) {
        if (size == data.length) data = Arrays.copyOf(data, Math.max(16, data.length + (data.length >> 1)));
        data[size++] = value;
    }

    public int get(int index) {
        if (index >= size) throw new IndexOutOfBoundsException(index + " >= " + size);
        return data[index];
    }

    public int size() {
        return size;
    }

    public void clear() {
        size = 0;
    }

    public int[] toArray() {
        return Arrays.copyOf(data, size);
    }
}

package dev.sparseprof.memsim;

import dev.sparseprof.trace.ArrayRole;

/** The bottom of a hierarchy: counts what reaches memory and, given a {@link DramConfig}, models the DRAM. */
public final class Memory implements MemoryLevel.Sink {
    private final Dram dram;
    private long reads;
    private long writes;
    private long bytesRead;
    private long bytesWritten;

    /** @param dram null for a flat memory that only counts */
    public Memory(DramConfig dram) {
        this.dram = dram == null ? null : new Dram(dram);
    }

    @Override
    public boolean fetch(long address, int sizeBytes, ArrayRole role) {
        reads++;
        bytesRead += sizeBytes;
        if (dram != null) dram.access(address, sizeBytes, false);
        return false;
    }

    @Override
    public void write(long address, int sizeBytes, ArrayRole role) {
        writes++;
        bytesWritten += sizeBytes;
        if (dram != null) dram.access(address, sizeBytes, true);
    }

    public MemoryStats snapshot() {
        return new MemoryStats(new ReadWrite(reads, writes), new ReadWrite(bytesRead, bytesWritten), dram == null ? null : dram.snapshot());
    }
}

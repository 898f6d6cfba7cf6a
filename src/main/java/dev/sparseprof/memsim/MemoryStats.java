package dev.sparseprof.memsim;

/** Main memory's side: reads and writes it served and their bytes; {@code dram} is null without a DRAM model. */
public record MemoryStats(ReadWrite requests, ReadWrite bytes, DramStats dram) {
    public MemoryStats minus(MemoryStats o) {
        return new MemoryStats(requests.minus(o.requests), bytes.minus(o.bytes), dram == null ? null : dram.minus(o.dram));
    }
}

package dev.sparseprof.kernel;

import dev.sparseprof.util.Checks;
import dev.sparseprof.util.SparseprofException;

/**
 * How a GPU-style trace maps work to hardware: {@code sms} streaming multiprocessors, thread blocks
 * of {@code warpsPerBlock} warps of 32 lanes assigned to SMs round-robin (block b on SM
 * {@code b mod sms}), and global accesses coalesced into {@code sectorBytes} sectors. The A100 has
 * 108 SMs and 32-byte L1/L2 sectors in 128-byte lines (NVIDIA A100 whitepaper; CUDA C++ Best
 * Practices Guide, "Coalesced Access to Global Memory").
 */
public record GpuGrid(int sms, int warpsPerBlock, int sectorBytes) {
    public static final int WARP_LANES = 32;

    public GpuGrid {
        Checks.positive(sms, "GPU SMs");
        Checks.positive(warpsPerBlock, "warps per block");
        if (!Checks.isPowerOfTwo(sectorBytes)) throw new SparseprofException("sector size must be a power of two, got " + sectorBytes);
    }

    /** An A100-like grid: 108 SMs, 4 warps per block, 32-byte sectors. */
    public static GpuGrid a100() { return new GpuGrid(108, 4, 32); }
}

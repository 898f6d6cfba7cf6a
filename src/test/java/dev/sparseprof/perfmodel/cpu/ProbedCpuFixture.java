package dev.sparseprof.perfmodel.cpu;

import dev.sparseprof.hw.CpuSpec;
import dev.sparseprof.hw.HardwareSpecs;

/**
 * The probed 2-core test CPU the ECM tests share (perfmodel.cpu's and calibrate's): 48 KiB L1d,
 * 2 MiB L2 per core, 32 MiB shared L3, every in-core rate set, at a SIMD width and a transfer
 * overlap of the test's choosing.
 */
public final class ProbedCpuFixture {
    private ProbedCpuFixture() {}

    /** The spec's YAML at {@code simdBits} (vectors and in-core rates) and {@code overlap} (0 to 1, as written). */
    public static String yaml(int simdBits, String overlap) {
        return """
                    version: 1
                    name: test cpu
                    cpu:
                      cores: 2
                      clock: 3GHz
                      simdWidth: %dbits
                      fmaPorts: 2
                      model: "Test CPU"
                      caches:
                        - {name: L1d, size: 48KiB, ways: 12, line: 64B, latency: 5cycles, shared: false, bandwidth: 400GB/s}
                        - {name: L2, size: 2MiB, ways: 16, line: 64B, latency: 16cycles, shared: false, bandwidth: 200GB/s}
                        - {name: L3, size: 32MiB, ways: 16, line: 64B, latency: 100cycles, shared: true, bandwidth: 50GB/s}
                      dram:
                        latency: 120ns
                        bandwidth:
                          - {cores: 1, bandwidth: 15GB/s}
                          - {cores: 2, bandwidth: 25GB/s}
                      inCore:
                        vectorBits: %dbits
                        denseFma: 0.75cycles
                        denseNarrowFma: 0.9cycles
                        block8: 8.5cycles
                        block4: 4.5cycles
                        block2: 4.0cycles
                        oneVector: 1.5cycles
                        rowBlock: 20cycles
                        wholeRow: 5cycles
                        cooEntry: 1cycles
                        cooRow: 10cycles
                        bsrWide: 60cycles
                        bsrNarrow: 20cycles
                        nmSlot: 3cycles
                        l2PerCore: 100GB/s
                        l3PerCore: 30GB/s
                        overlap: %s
                    overheads:
                      launch: 0.1us
                      forkJoin: 0.5us
                    """.formatted(simdBits, simdBits, overlap);
    }

    public static CpuSpec cpu(int simdBits, String overlap) {
        return (CpuSpec) HardwareSpecs.parse("test.yaml", yaml(simdBits, overlap));
    }
}

package dev.sparseprof.hw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The {@code runtime:} section of a GPU spec: presets, overrides, strict keys and units. */
class RuntimeSpecTest {
    static GpuSpec gpu(String runtime) {
        return (GpuSpec) HardwareSpecs.parse("rt.yaml", "version: 1\npreset: a100-80gb\n" + runtime);
    }

    @Test
    void aSpecWithoutARuntimeRunsTheDefault() {
        assertEquals(Runtimes.DEFAULT, gpu("").runtime().name());
        assertEquals("sm90", ((GpuSpec) HardwareSpecs.load("h100-sxm")).arch());
        assertEquals("sm90", ((GpuSpec) HardwareSpecs.load("h200")).arch(), "h200 inherits h100-sxm's generation");
        assertEquals("sm80", ((GpuSpec) HardwareSpecs.load("a100-40gb")).arch());
    }

    @Test
    void aPresetWithOverrides() {
        RuntimeSpec r = gpu("runtime:\n  preset: torch-cutlass\n  sparseHost: 150us\n  sparseBias: kernel\n").runtime();
        assertEquals("torch-cutlass+overrides", r.name());
        assertEquals(150e-6, r.sparseHostSeconds(), 1e-15);
        assertEquals("kernel", r.sparseBias());
        assertEquals("128x128", r.sparseTile(), "the preset's other keys stay");
        assertEquals("64x128x64/6", gpu("runtime: {preset: torch-cutlass, sparseTile: 64x128x64/6}\n").runtime().sparseTile());
        assertFalse(r.sparseInputCopy());
        assertTrue(gpu("runtime: {preset: torch-cutlass, sparseInputCopy: true}\n").runtime().sparseInputCopy());
        assertTrue(Runtimes.byName("cutlass").legacySparseKernels() == false);
        assertTrue(gpu("runtime: {preset: cutlass, sparseKernels: sm80}\n").runtime().legacySparseKernels());
        // The SM80 CTA swizzle: PyTorch's 2:4 kernels GemmIdentityThreadblockSwizzle<> (1), the profiler Identity8.
        assertEquals(1, Runtimes.byName("torch-cutlass").sparseSwizzle());
        assertEquals(8, Runtimes.byName("cutlass").sparseSwizzle());
        assertEquals(2, gpu("runtime: {preset: cutlass, swizzle: 2}\n").runtime().swizzle());
    }

    @Test
    void faultsNameTheKeyInOneLine() {
        String[][] cases = {
            {"runtime:\n  sparsehost: 5us\n", "rt.yaml: runtime.sparsehost: unknown key (allowed: preset, denseHost, sparseHost, launch"},
            {"runtime:\n  launch: 3 parsecs\n", "rt.yaml: runtime.launch:"},
            {"runtime:\n  launch: -3us\n", "rt.yaml: runtime.launch: must not be negative"},
            {"runtime:\n  preset: tensorrt-9\n", "rt.yaml: runtime.preset: runtime 'tensorrt-9' is not a preset (presets: torch-cusparselt"},
            {"runtime:\n  mainloopEfficiency: 1.5\n", "rt.yaml: runtime: mainloopEfficiency must be a fraction in (0, 1], got 1.5"},
            {"runtime:\n  sparseKernels: sm70\n", "rt.yaml: runtime: sparseKernels must be sm80 or sm90, got 'sm70'"},
            {"gpu:\n  arch: sm75\n", "rt.yaml: gpu.arch must be sm80 or sm90, got 'sm75'"},
            {"runtime:\n  sparseBias: unfused\n", "rt.yaml: runtime: sparseBias must be fused, kernel or matrix, got 'unfused'"},
            {"runtime:\n  sparseTile: 64x128x64/1\n", "rt.yaml: runtime: sparseTile must be menu, RxC (128x128) or RxCxK/S (64x128x64/6)"},
            {"runtime:\n  sparseSwizzle: 3\n", "rt.yaml: runtime: sparseSwizzle must be 1, 2, 4 or 8"},
        };
        for (String[] c : cases) {
            SpecException e = assertThrows(SpecException.class, () -> gpu(c[0]), c[0]);
            assertTrue(e.getMessage().startsWith(c[1]), c[0] + " -> " + e.getMessage());
            assertEquals(1, e.getMessage().lines().count(), e.getMessage());
        }
        SpecException cpu = assertThrows(SpecException.class,
                () -> HardwareSpecs.parse("c.yaml", "version: 1\npreset: xeon-spr\nruntime: {preset: cutlass}\n"));
        assertTrue(cpu.getMessage().contains("runtime: is the software stack of GPU GEMMs"), cpu.getMessage());
    }
}

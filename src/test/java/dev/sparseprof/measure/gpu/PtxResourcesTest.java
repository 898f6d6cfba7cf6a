package dev.sparseprof.measure.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The committed PTX is there for machines without nvcc, with the entries the runner asks for. */
class PtxResourcesTest {
    @Test
    void everyKernelHasItsEntryInCommittedPtx() {
        for (GpuKernel k : GpuKernel.values()) {
            byte[] ptx = PtxResources.load(k);
            assertEquals(0, ptx[ptx.length - 1], "NUL-terminated for cuModuleLoadData");
            String text = new String(ptx, 0, ptx.length - 1, StandardCharsets.US_ASCII);
            assertTrue(text.contains(".visible .entry " + k.entry() + "("), k + " entry");
            assertTrue(text.contains(".target sm_80"), k + " target");
        }
    }

    @Test
    void theSparseKernelUsesSparseTensorCores() {
        String text = new String(PtxResources.load(GpuKernel.SPARSE24_MMA), StandardCharsets.US_ASCII);
        assertTrue(text.contains("mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32"));
        String dense = new String(PtxResources.load(GpuKernel.DENSE_MMA_F16), StandardCharsets.US_ASCII);
        assertTrue(dense.contains("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"));
        assertEquals("sparse24-mma", GpuKernel.SPARSE24_MMA.key());
    }
}

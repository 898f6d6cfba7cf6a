package dev.sparseprof.perfmodel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sparseprof.hw.ComputeUnit;
import dev.sparseprof.hw.HardwareSpec;
import dev.sparseprof.hw.HardwareSpecs;
import dev.sparseprof.model.GemmLayer;
import dev.sparseprof.model.Model;
import dev.sparseprof.model.Models;
import dev.sparseprof.util.DType;
import dev.sparseprof.util.Progress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * simulate with 2:4 on a model with depthwise convolutions (face-api's tiny face detector, as
 * test.sh installs it): each depthwise layer says N:M along K = kh·kw is not modelled and is priced
 * dense, the other layers run 2:4.
 */
class DepthwiseStructuredTest {
    private static final Path FACE_API = Path.of("target/npm/node_modules/@vladmandic/face-api/model");

    @Test
    void depthwiseLayersArePricedDenseWithANoteUnderTwoFour() throws Exception {
        Path manifest = FACE_API.resolve("tiny_face_detector_model-weights_manifest.json");
        assumeTrue(Files.isRegularFile(manifest), "face-api not installed (test.sh installs it into target/npm)");
        HardwareSpec spec = HardwareSpecs.load("a100-80gb");
        Simulation.Options o = new Simulation.Options(1, DType.F16, Workloads.Pruning.TWO_FOUR, 0.5, List.of(FormatModels.byName("2:4")));
        try (Model m = Models.open(manifest)) {
            List<GemmLayer> gemms = Simulation.gemmLayers(m.layers());
            List<String> notes = Simulation.notes(m.layers(), o);
            List<Workload> workloads = Simulation.workloads(m.layers(), o, Progress.NONE);
            Simulation.Result r = Simulation.run(new PerfModel(spec, TrafficModel.ANALYTICAL), workloads, o, notes, Progress.NONE);
            int depthwise = 0;
            for (int i = 0; i < gemms.size(); i++) {
                GemmLayer l = gemms.get(i);
                LayerEstimate e = r.layers().get(i);
                if (l.depthwise()) {
                    depthwise++;
                    assertTrue(r.notes().get(i).contains("K = kh·kw = " + l.cols() + " is not modelled"), r.notes().get(i));
                    assertEquals("dense", e.format(), l.name() + ": priced dense");
                    assertEquals(Workloads.of(l, 1, DType.F16, Workloads.Pruning.NONE, 0).sparsity(), e.workload().sparsity(), 0,
                            l.name() + ": kept as the file holds it");
                } else if (l.cols() % 4 != 0) {
                    assertTrue(r.notes().get(i).startsWith("2:4 not modelled (K = " + l.cols() + " is not a multiple of 4)"), l.name() + ": K = " + l.cols() + ": " + r.notes().get(i));
                    assertEquals("dense", e.format(), l.name());
                } else {
                    assertNull(r.notes().get(i), l.name());
                    assertEquals("2:4", e.format(), l.name());
                }
            }
            assertTrue(depthwise >= 1, "the tiny face detector has depthwise layers");
        }
    }

    /**
     * The face-api models store uint8 weights, simulate's default dtype: on a GPU spec dense and 2:4
     * run on the tensor cores at the int8 peaks (IMMA takes .u8 as .s8); a CPU spec computes in fp32.
     */
    @Test
    void storedUint8RunsAtTheInt8TensorPeaksOnAGpuAndInFp32OnACpu() throws Exception {
        Path manifest = FACE_API.resolve("tiny_face_detector_model-weights_manifest.json");
        assumeTrue(Files.isRegularFile(manifest), "face-api not installed (test.sh installs it into target/npm)");
        HardwareSpec gpu = HardwareSpecs.load("a100-80gb");
        assertEquals(gpu.peaks().flopsPerSecond(ComputeUnit.TENSOR, DType.I8), gpu.peaks().flopsPerSecond(ComputeUnit.TENSOR, DType.U8));
        assertEquals(gpu.peaks().flopsPerSecond(ComputeUnit.SPARSE_TENSOR, DType.I8),
                gpu.peaks().flopsPerSecond(ComputeUnit.SPARSE_TENSOR, DType.U8));
        assertTrue(!gpu.peaks().has(ComputeUnit.VECTOR, DType.U8), "CUDA cores: no uint8 alias");
        Simulation.Options o = new Simulation.Options(1, DType.U8, Workloads.Pruning.TWO_FOUR, 0.5, List.of(FormatModels.byName("2:4")));
        try (Model m = Models.open(manifest)) {
            List<GemmLayer> gemms = Simulation.gemmLayers(m.layers());
            List<Workload> workloads = Simulation.workloads(m.layers(), o, Progress.NONE);
            for (HardwareSpec spec : List.of(gpu, HardwareSpecs.load("xeon-spr"))) {
                Simulation.Result r = Simulation.run(new PerfModel(spec, TrafficModel.ANALYTICAL), workloads, o,
                        Simulation.notes(m.layers(), o), Progress.NONE);
                int twoFour = 0;
                for (int i = 0; i < gemms.size(); i++) {
                    LayerEstimate e = r.layers().get(i);
                    assertTrue(e.predictedSeconds() > 0, gemms.get(i).name());
                    if (e.format().equals("2:4")) twoFour++;
                }
                assertTrue(twoFour >= 1, spec.source() + ": the pointwise layers run 2:4 in uint8");
            }
        }
    }
}

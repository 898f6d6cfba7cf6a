package dev.sparseprof.perfmodel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.hw.ComputeUnit;
import dev.sparseprof.hw.HardwareSpec;
import dev.sparseprof.hw.HardwareSpecs;
import dev.sparseprof.sparse.stats.BlockShape;
import dev.sparseprof.util.DType;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * Issue 11's crossover goal, one test per published crossover of {@code validation/published/spmm.yaml}
 * (the model's own bisection on the shipped A100 spec, nothing fitted to these cases): where the
 * goal is met the prediction is asserted within 5 points of the published figure; where it is not,
 * the test names the shortfall and pins the current figure (0.1 point), so a model change that
 * moves it must update this table, the README's crossover line and docs/perfmodel.md together.
 */
class PublishedCrossoversTest {
    private static final double GOAL_POINTS = 0.05;
    private static Map<String, PublishedCases.Row> rows;

    private static synchronized Map<String, PublishedCases.Row> rows() {
        if (rows == null) {
            Map<String, PublishedCases.Row> m = new HashMap<>();
            for (PublishedCases.Row r : PublishedCases.evaluate(Path.of("validation/published/spmm.yaml"))) m.put(r.caseName(), r);
            rows = m;
        }
        return rows;
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        // ref,                          published, goal met, predicted now
        "sputnik-llm-skinny-crossover,   0.90, true,  0.944",
        "cusparse-llm-skinny-crossover,  0.98, true,  0.968",
        // The Triton BSR figures: the Quansight post as published, read from its figure (spmm.yaml).
        "triton-bsr16-fp16-crossover,    0.952, true,  0.952",
        "triton-bsr32-fp16-crossover,    0.804, true,  0.793",
        "triton-bsr64-fp16-crossover,    0.552, true,  0.539",
        "triton-bsr16-fp32-crossover,    0.664, false, 0.778",
    })
    void crossover(String ref, double published, boolean met, double now) {
        PublishedCases.Row r = rows().get(ref);
        assertEquals(published, r.publishedValue(), 1e-12, ref + ": the data file's figure");
        double off = r.predictedValue() - published;
        if (met) {
            assertTrue(Math.abs(off) <= GOAL_POINTS, ref + ": " + pts(off) + " off, goal 5 points");
        } else {
            // Goal not met: the figure is named here, not hidden (docs/perfmodel.md, "Published crossovers").
            assertTrue(Math.abs(off) > GOAL_POINTS, ref + " now meets the goal (" + pts(off) + "): move it to the met rows");
        }
        assertEquals(now, r.predictedValue(), 0.001, ref + ": predicted " + pts(r.predictedValue()) + " against the recorded "
                + pts(now) + " (published " + pts(published) + ", " + (met ? "goal met" : "goal NOT met: " + pts(off) + " off") + ")");
    }

    @Test
    void fp32BlocksRunAsTheFmaDotAndFp16OnTheTensorCores() {
        HardwareSpec a100 = HardwareSpecs.load("a100-80gb");
        for (DType d : List.of(DType.F16, DType.F32)) {
            Workload w = Workload.blockSparse("b", 1024, 1024, 512, d, BlockShape.parse("16x16"), 0.25);
            KernelPlan p = FormatModels.byName("bsr16x16").plan(w, a100);
            // PyTorch 2.1's _run_dense_rowspace_kernel: allow_tf32=True only for half/bfloat16.
            assertEquals(d == DType.F16 ? ComputeUnit.TENSOR : ComputeUnit.VECTOR, p.unit(), d.label());
            assertEquals(d == DType.F16 ? DType.F16 : DType.F32, p.computeDType(), d.label());
        }
    }

    private static String pts(double x) {
        return String.format(Locale.ROOT, "%.1f%%", 100 * x);
    }
}

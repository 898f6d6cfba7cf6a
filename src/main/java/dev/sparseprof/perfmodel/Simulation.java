package dev.sparseprof.perfmodel;

import dev.sparseprof.hw.HardwareSpec;
import dev.sparseprof.model.GemmLayer;
import dev.sparseprof.model.LayerKind;
import dev.sparseprof.util.DType;
import dev.sparseprof.util.Progress;
import dev.sparseprof.util.SparseprofException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A model on a machine: every GEMM layer (embedding gathers are not GEMMs and are left out)
 * pruned as asked, then estimated in one format or the best of several, with the model's totals.
 */
public final class Simulation {
    private Simulation() {}

    /** What to simulate: the dense operand's batch, the value type, what-if pruning, candidate formats. */
    public record Options(long batch, DType dtype, Workloads.Pruning pruning, double sparsity, List<FormatModel> formats) {
        public Options {
            if (batch <= 0) throw new IllegalArgumentException("batch must be positive");
            formats = List.copyOf(formats);
            if (formats.isEmpty()) throw new IllegalArgumentException("no formats");
        }
    }

    /**
     * The estimates of one run; {@code bestSparse} holds, per layer, the fastest non-dense
     * candidate (so a run where dense wins still shows what sparsity would cost), or null where
     * no sparse candidate can run the layer or only one format was asked for.
     */
    public record Result(HardwareSpec spec, Options options, List<LayerEstimate> layers, List<LayerEstimate> bestSparse) {
        public Result {
            layers = List.copyOf(layers);
            bestSparse = Collections.unmodifiableList(new ArrayList<>(bestSparse));
            if (bestSparse.size() != layers.size()) throw new IllegalArgumentException("one best sparse entry per layer");
        }

        public double predictedSeconds() {
            double s = 0;
            for (LayerEstimate e : layers) s += e.predictedSeconds();
            return s;
        }

        public double denseSeconds() {
            double s = 0;
            for (LayerEstimate e : layers) s += e.denseSeconds();
            return s;
        }

        public double speedup() {
            return denseSeconds() / predictedSeconds();
        }
    }

    /** The value type a spec's kernels use when none is asked for: fp16 on GPUs (tensor cores), fp32 on CPUs. */
    public static DType defaultDType(HardwareSpec spec) {
        return spec.isGpu() ? DType.F16 : DType.F32;
    }

    public static List<GemmLayer> gemmLayers(List<GemmLayer> layers) {
        List<GemmLayer> out = new ArrayList<>();
        for (GemmLayer l : layers) if (l.kind() != LayerKind.EMBEDDING_GATHER) out.add(l);
        return out;
    }

    public static List<Workload> workloads(List<GemmLayer> layers, Options o, Progress progress) {
        List<GemmLayer> gemms = gemmLayers(layers);
        List<Workload> out = new ArrayList<>(gemms.size());
        for (int i = 0; i < gemms.size(); i++) {
            GemmLayer l = gemms.get(i);
            out.add(Workloads.of(l, o.batch(), o.dtype(), o.pruning(), o.sparsity()));
            progress.update(i + 1, gemms.size());
        }
        progress.finish();
        return out;
    }

    /** One format: it must run every layer; several: the fastest per layer (and the fastest sparse one). */
    public static Result run(PerfModel model, List<Workload> workloads, Options o) {
        return run(model, workloads, o, Progress.NONE);
    }

    /** As above, reporting each layer done to {@code progress}. */
    public static Result run(PerfModel model, List<Workload> workloads, Options o, Progress progress) {
        List<LayerEstimate> out = new ArrayList<>(workloads.size());
        List<LayerEstimate> sparse = new ArrayList<>(workloads.size());
        for (int i = 0; i < workloads.size(); i++) {
            Workload w = workloads.get(i);
            if (o.formats().size() == 1) {
                out.add(model.estimate(w, o.formats().get(0)));
                sparse.add(null);
            } else {
                // Every format once, against the layer's one dense baseline.
                List<LayerEstimate> all = model.estimates(w, o.formats());
                LayerEstimate best = PerfModel.fastest(all, false);
                if (best == null) throw new SparseprofException(model.spec().source() + ": " + w.name() + ": none of the formats can run this layer");
                out.add(best);
                sparse.add(PerfModel.fastest(all, true));
            }
            progress.update(i + 1, workloads.size());
        }
        progress.finish();
        return new Result(model.spec(), o, out, sparse);
    }
}

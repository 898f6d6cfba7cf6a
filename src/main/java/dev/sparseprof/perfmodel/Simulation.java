package dev.sparseprof.perfmodel;

import dev.sparseprof.hw.HardwareSpec;
import dev.sparseprof.model.GemmLayer;
import dev.sparseprof.model.LayerKind;
import dev.sparseprof.sparse.stats.NmPattern;
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
    public record Result(HardwareSpec spec, Options options, List<LayerEstimate> layers, List<LayerEstimate> bestSparse, List<String> notes) {
        public Result {
            layers = List.copyOf(layers);
            bestSparse = Collections.unmodifiableList(new ArrayList<>(bestSparse));
            notes = Collections.unmodifiableList(new ArrayList<>(notes));
            if (bestSparse.size() != layers.size()) throw new IllegalArgumentException("one best sparse entry per layer");
            if (notes.size() != layers.size()) throw new IllegalArgumentException("one note entry per layer");
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

    /**
     * Why N:M pruning is not modelled on {@code l}, or null: a depthwise convolution reduces over
     * K = kh·kw of one input channel (9 for a 3x3), and the sparse tensor cores' N:M along that K
     * is no kernel the libraries run (cuSPARSELt and CUTLASS take a 2:4 GEMM operand; a depthwise
     * conv is not one GEMM), so the layer is kept and priced dense, as {@code prune} leaves it.
     */
    public static String structuredNotModelled(GemmLayer l, Options o) {
        boolean nm = o.pruning() == Workloads.Pruning.TWO_FOUR || o.pruning() == Workloads.Pruning.ONE_TWO;
        if (!nm || !l.depthwise()) return null;
        return "depthwise conv: N:M along K = kh·kw = " + l.cols() + " is not modelled; kept and priced dense (prune leaves it dense too)";
    }

    /** Per GEMM layer (as {@link #workloads} lists them), {@link #structuredNotModelled}'s note or null. */
    public static List<String> notes(List<GemmLayer> layers, Options o) {
        List<String> out = new ArrayList<>();
        for (GemmLayer l : gemmLayers(layers)) out.add(structuredNotModelled(l, o));
        return out;
    }

    public static List<Workload> workloads(List<GemmLayer> layers, Options o, Progress progress) {
        List<GemmLayer> gemms = gemmLayers(layers);
        List<Workload> out = new ArrayList<>(gemms.size());
        for (int i = 0; i < gemms.size(); i++) {
            GemmLayer l = gemms.get(i);
            Workloads.Pruning pruning = structuredNotModelled(l, o) != null ? Workloads.Pruning.NONE : o.pruning();
            out.add(Workloads.of(l, o.batch(), o.dtype(), pruning, o.sparsity()));
            progress.update(i + 1, gemms.size());
        }
        progress.finish();
        return out;
    }

    private static NmPattern nmPattern(Workloads.Pruning p) {
        return p == Workloads.Pruning.ONE_TWO ? NmPattern.ONE_TWO : NmPattern.TWO_FOUR;
    }

    /** One format: it must run every layer; several: the fastest per layer (and the fastest sparse one). */
    public static Result run(PerfModel model, List<Workload> workloads, Options o) {
        return run(model, workloads, o, Progress.NONE);
    }

    /** As above, reporting each layer done to {@code progress}. */
    public static Result run(PerfModel model, List<Workload> workloads, Options o, Progress progress) {
        return run(model, workloads, o, Collections.nCopies(workloads.size(), null), progress);
    }

    /**
     * As above, with {@link #notes}' per-layer notes: a noted layer (kept dense: N:M not modelled on it)
     * is priced dense when the one asked-for format cannot run it, and the note goes with the result.
     */
    public static Result run(PerfModel model, List<Workload> workloads, Options o, List<String> notes, Progress progress) {
        if (notes.size() != workloads.size()) throw new IllegalArgumentException("one note entry per workload");
        List<String> said = new ArrayList<>(notes);
        boolean structured = o.pruning() == Workloads.Pruning.TWO_FOUR || o.pruning() == Workloads.Pruning.ONE_TWO;
        List<LayerEstimate> out = new ArrayList<>(workloads.size());
        List<LayerEstimate> sparse = new ArrayList<>(workloads.size());
        FormatModel dense = FormatModels.byName("dense");
        for (int i = 0; i < workloads.size(); i++) {
            Workload w = workloads.get(i);
            if (o.formats().size() == 1) {
                FormatModel f = o.formats().get(0);
                String why = f.unsupported(w, model.spec());
                // N:M-pruned run, one N:M format, a layer the pruning could not make N:M (K not a multiple of M, or a
                // depthwise conv kept dense): priced dense, with the reason as the layer's note.
                boolean keptDense = why != null && (said.get(i) != null || structured && !w.compliant(nmPattern(o.pruning())));
                if (keptDense && said.get(i) == null) {
                    int mOf = nmPattern(o.pruning()).m();
                    said.set(i, f.name() + " not modelled (" + (w.cols() % mOf != 0 ? "K = " + w.cols() + " is not a multiple of " + mOf : why)
                            + "); priced dense");
                }
                out.add(model.estimate(w, keptDense ? dense : f));
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
        PendingCheck.makeShown(out); // the reports show the chosen estimates' checks, not the ranked candidates'
        progress.finish();
        return new Result(model.spec(), o, out, sparse, said);
    }
}

package dev.sparseprof.report;

import dev.sparseprof.perfmodel.Balance;
import dev.sparseprof.perfmodel.GapBreakdown;
import dev.sparseprof.perfmodel.LayerEstimate;
import dev.sparseprof.perfmodel.Prediction;
import dev.sparseprof.perfmodel.Traffic;
import dev.sparseprof.perfmodel.TrafficCheck;
import dev.sparseprof.perfmodel.Workload;
import dev.sparseprof.util.JsonWriter;

/** One {@link LayerEstimate} as a JSON object, shared by the simulate and compare reports. */
final class EstimateJson {
    private EstimateJson() {}

    static void write(JsonWriter j, LayerEstimate e) {
        write(j, e, null);
    }

    /** With {@code bestSparse} (may be null): the fastest non-dense candidate's format, time and speedup. */
    static void write(JsonWriter j, LayerEstimate e, LayerEstimate bestSparse) {
        Workload w = e.workload();
        Prediction p = e.predicted();
        j.beginObject();
        j.field("name", w.name()).field("format", e.format()).field("kernel", p.plan().kernel());
        j.name("shape").beginObject().field("m", w.rows()).field("k", w.cols()).field("n", w.denseColumns()).endObject();
        j.field("dtype", w.dtype().label()).field("sparsity", w.sparsity()).field("nnz", w.nnz());
        j.field("predictedSeconds", e.predictedSeconds()).field("denseSeconds", e.denseSeconds());
        j.field("speedup", e.speedup()).field("theoreticalSpeedup", e.theoreticalSpeedup());
        j.field("bottleneck", p.bottleneck()).field("denseBottleneck", e.dense().bottleneck());
        j.field("computeSeconds", p.computeSeconds()).field("latencySeconds", p.latencySeconds()).field("overheadSeconds", p.overheadSeconds());
        j.field("imbalance", p.imbalanceFactor()).field("balance", p.plan().balance().schedule());
        if (!e.cpuSchedules().isEmpty()) {
            j.name("cpuSchedules").beginObject();
            for (Balance b : e.cpuSchedules()) j.field(b.schedule(), b.factor());
            j.endObject();
        }
        Traffic t = p.traffic();
        j.field("trafficSource", t.source()).field("denseTrafficSource", e.dense().traffic().source()).field("samplingError", t.samplingError());
        check(j, "trafficCheck", t.check());
        check(j, "denseTrafficCheck", e.dense().traffic().check());
        j.name("levels").beginArray();
        double[] seconds = p.levelSeconds();
        for (int i = 0; i < t.levels().size(); i++) {
            j.beginObject().field("name", t.levels().get(i)).field("bytes", t.bytesAt(i));
            if (i < t.levels().size() - 1) j.field("missRate", t.missRate(i));
            j.field("seconds", seconds[i]).field("arithmeticIntensity", p.arithmeticIntensity(i)).endObject();
        }
        j.endArray();
        j.field("dramBytes", t.dramBytes()).field("storedBytes", e.storedBytes()).field("denseStoredBytes", e.denseStoredBytes());
        GapBreakdown g = e.gap();
        j.name("gap").beginObject().field("idealSeconds", g.idealSeconds());
        double[] parts = g.parts();
        for (int i = 0; i < parts.length; i++) j.field(GapBreakdown.PART_NAMES[i] + "Seconds", parts[i]);
        j.endObject();
        if (bestSparse != null) {
            j.name("bestSparse").beginObject().field("format", bestSparse.format())
                    .field("predictedSeconds", bestSparse.predictedSeconds()).field("speedup", bestSparse.speedup()).endObject();
        }
        j.endObject();
    }

    /** The memsim check of a GPU layer's analytical traffic, when one was made. */
    private static void check(JsonWriter j, String name, TrafficCheck c) {
        if (c == null) return;
        j.name(name).beginObject().field("layer", c.layer()).field("sample", c.sample()).field("exceedsTolerance", c.exceedsTolerance());
        j.name("levels").beginArray();
        for (int i = 0; i < c.levels().size(); i++) {
            j.beginObject().field("name", c.levels().get(i)).field("replayBytes", c.replayBytes()[i])
                    .field("analyticalBytes", c.analyticalBytes()[i]).field("relativeDifference", c.relativeDifference(i)).endObject();
        }
        j.endArray().endObject();
    }
}

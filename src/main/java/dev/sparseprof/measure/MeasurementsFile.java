package dev.sparseprof.measure;

import dev.sparseprof.util.AtomicFiles;
import dev.sparseprof.util.Json;
import dev.sparseprof.util.JsonWriter;
import dev.sparseprof.util.SparseprofException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The measurements JSON file (documented in docs/kernels.md): {@code version}, the
 * {@link MeasurementsHeader} fields at the top level, and {@code results[]}, one object per
 * {@link Measurement}. {@link #read} is strict about the keys it needs and names the file, the
 * result index and the key at fault; unknown keys are kept out of the records but allowed, so
 * that later versions can add fields.
 */
public record MeasurementsFile(MeasurementsHeader header, List<Measurement> results) {
    public static final int VERSION = 1;

    public MeasurementsFile {
        results = List.copyOf(results);
    }

    public String toJson() {
        JsonWriter w = new JsonWriter();
        w.beginObject().field("version", VERSION)
                .field("model", header.model()).field("machine", header.machine()).field("date", header.date())
                .field("javaVersion", header.javaVersion()).field("command", header.command())
                .field("cpuModel", header.identity().cpuModel()).field("cpus", header.identity().cpus())
                .field("vectorBits", header.identity().vectorBits());
        if (header.pinnedCpus() != null) {
            w.name("pinnedCpus").beginArray();
            for (int cpu : header.pinnedCpus()) w.value(cpu);
            w.endArray();
        }
        w.name("results").beginArray();
        for (Measurement m : results) {
            Timing t = m.timing();
            w.beginObject().field("layer", m.layer()).field("format", m.format()).field("batch", m.batch())
                    .field("threads", m.threads()).field("partition", m.partition())
                    .field("rows", m.rows()).field("cols", m.cols()).field("nnz", m.nnz()).field("sparsity", m.sparsity())
                    .field("repetitions", t.repetitions()).field("medianSeconds", t.medianSeconds())
                    .field("minSeconds", t.minSeconds()).field("maxSeconds", t.maxSeconds())
                    .field("q1Seconds", t.q1Seconds()).field("q3Seconds", t.q3Seconds()).field("imbalance", t.imbalance())
                    .field("gflops", m.gflops()).field("effectiveGBps", m.effectiveGBps())
                    .field("speedupOverDense", m.speedupOverDense())
                    .field("warmupSettled", m.stability().warmupSettled()).field("warmupRuns", m.stability().warmupRuns())
                    .field("attempts", m.stability().attempts()).field("noisy", m.stability().noisy())
                    .field("noise", m.stability().reason()).field("noiseCriterion", m.stability().criterion().key())
                    .field("canaryGflops", m.stability().canaryGflops()).field("speed", m.stability().speed()).endObject();
        }
        return w.endArray().endObject().toString();
    }

    public void write(Path file) {
        AtomicFiles.writeString(file, toJson());
    }

    public static MeasurementsFile read(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw SparseprofException.in(file.toString(), "cannot read: " + e.getMessage());
        }
        return parse(file.toString(), text);
    }

    /** Parses the JSON {@code text}; {@code source} names it in error messages. */
    public static MeasurementsFile parse(String source, String text) {
        Map<String, Object> root;
        try {
            root = Json.parseObject(text);
        } catch (SparseprofException e) {
            throw SparseprofException.in(source, e.getMessage());
        }
        Fields top = new Fields(source, root);
        long version = top.integer("version");
        if (version != VERSION) throw SparseprofException.in(source, "version " + version + " (this sparseprof reads " + VERSION + ")");
        MeasurementsHeader header;
        try {
            MachineIdentity identity = root.containsKey("cpuModel")
                    ? new MachineIdentity(top.string("cpuModel"), top.int32("cpus"), top.int32("vectorBits")) : null;
            header = new MeasurementsHeader(top.string("model"), top.string("machine"), top.string("date"),
                    top.string("javaVersion"), top.string("command"), identity, pinnedCpus(top));
        } catch (IllegalArgumentException e) {
            throw SparseprofException.in(source, e.getMessage());
        }
        List<Measurement> results = new ArrayList<>();
        List<Object> list = top.list("results");
        for (int i = 0; i < list.size(); i++) {
            if (!(list.get(i) instanceof Map<?, ?> map)) throw SparseprofException.in(source, "results[" + i + "] is not an object");
            @SuppressWarnings("unchecked")
            Fields r = new Fields(source + ": results[" + i + "]", (Map<String, Object>) map);
            try {
                Timing t = new Timing(r.int32("repetitions"), r.number("medianSeconds"), r.number("minSeconds"),
                        r.number("maxSeconds"), r.number("q1Seconds"), r.number("q3Seconds"), r.number("imbalance"));
                results.add(new Measurement(r.string("layer"), r.string("format"), r.int32("batch"), r.int32("threads"),
                        r.string("partition"), r.int32("rows"), r.int32("cols"), r.integer("nnz"), r.number("sparsity"),
                        t, r.number("gflops"), r.number("effectiveGBps"), r.numberOrNaN("speedupOverDense"), stability(r)));
            } catch (IllegalArgumentException e) {
                throw SparseprofException.in(source + ": results[" + i + "]", e.getMessage());
            }
        }
        return new MeasurementsFile(header, results);
    }

    /** The header's {@code pinnedCpus}: null for files written before it was recorded. */
    private static List<Integer> pinnedCpus(Fields top) {
        if (!top.map().containsKey("pinnedCpus")) return null;
        List<Integer> cpus = new ArrayList<>();
        List<Object> list = top.list("pinnedCpus");
        for (int i = 0; i < list.size(); i++) {
            if (!(list.get(i) instanceof Long cpu) || cpu < 0 || cpu > Integer.MAX_VALUE) {
                throw SparseprofException.in(top.where(), "pinnedCpus[" + i + "] must be a CPU number");
            }
            cpus.add(cpu.intValue());
        }
        return cpus;
    }

    /**
     * A result's {@link Stability}; {@link Stability#UNKNOWN} for files written before it was
     * recorded, no speed for files written before the canary (or null there: not read).
     */
    private static Stability stability(Fields r) {
        if (!r.map().containsKey("attempts")) return Stability.UNKNOWN;
        boolean noisy = r.bool("noisy");
        String reason = r.string("noise");
        double canary = r.optionalNumberOrNaN("canaryGflops");
        double speed = r.optionalNumberOrNaN("speed");
        NoiseCriterion criterion;
        if (!r.map().containsKey("noiseCriterion")) {
            // written before the criterion was kept: as its reason names it
            criterion = NoiseCriterion.ofLegacyReason(noisy, reason);
        } else {
            String key = r.string("noiseCriterion");
            criterion = NoiseCriterion.ofKey(key);
            if (criterion == null || noisy != (criterion != NoiseCriterion.NONE)) {
                throw SparseprofException.in(r.where(), "noiseCriterion '" + key + "' does not fit noisy: " + noisy);
            }
        }
        return new Stability(r.bool("warmupSettled"), r.int32("warmupRuns"), r.int32("attempts"), noisy, reason, criterion, canary, speed);
    }

    /** Typed access to one JSON object's members, with errors naming the path. */
    private record Fields(String where, Map<String, Object> map) {
        Object get(String key) {
            if (!map.containsKey(key)) throw SparseprofException.in(where, "missing key '" + key + "'");
            return map.get(key);
        }

        String string(String key) {
            if (get(key) instanceof String s) return s;
            throw SparseprofException.in(where, "'" + key + "' must be a string");
        }

        double number(String key) {
            if (get(key) instanceof Number n) return n.doubleValue();
            throw SparseprofException.in(where, "'" + key + "' must be a number");
        }

        boolean bool(String key) {
            if (get(key) instanceof Boolean b) return b;
            throw SparseprofException.in(where, "'" + key + "' must be true or false");
        }

        double numberOrNaN(String key) {
            return get(key) == null ? Double.NaN : number(key);
        }

        /** NaN where the key is absent or null. */
        double optionalNumberOrNaN(String key) {
            return map.containsKey(key) ? numberOrNaN(key) : Double.NaN;
        }

        long integer(String key) {
            if (get(key) instanceof Long l) return l;
            throw SparseprofException.in(where, "'" + key + "' must be an integer");
        }

        /** An integer that fits an {@code int}: a larger one is a lie, not something to wrap around. */
        int int32(String key) {
            long v = integer(key);
            if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) throw SparseprofException.in(where, "'" + key + "' is " + v + ", out of range");
            return (int) v;
        }

        @SuppressWarnings("unchecked")
        List<Object> list(String key) {
            if (get(key) instanceof List<?> l) return (List<Object>) l;
            throw SparseprofException.in(where, "'" + key + "' must be an array");
        }
    }
}

package dev.sparseprof.calibrate;

import dev.sparseprof.hw.CpuSpec;
import dev.sparseprof.hw.HardwareSpec;
import dev.sparseprof.hw.InCoreRates;
import dev.sparseprof.util.SparseprofException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The spec overlay a fit writes: {@code preset:} the spec the fit started from, and the fitted
 * values as overrides (cache level bandwidths, the DRAM curve, the overheads, the clock), each with
 * a comment giving its value before the fit. {@link #checked} loads the printed overlay and
 * compares its predictions with the fit's, so a spec that would predict differently is never
 * written.
 */
public final class CalibratedOverlay {
    private CalibratedOverlay() {}

    public static SpecOverlay of(CalibrationResult r, String preset, List<String> provenance) {
        CpuSpec fitted = r.after().spec();
        CpuParameters before = r.before();
        Map<String, Object> cpu = new LinkedHashMap<>();
        Map<String, String> notes = new LinkedHashMap<>();
        if (r.fitted().contains(FitParameter.CLOCK)) {
            cpu.put("clock", Quantities.gigahertz(fitted.clockHertz()));
            notes.put("cpu.clock", "fitted compute roof as an effective clock; was " + Quantities.gigahertz(before.get(FitParameter.CLOCK)));
        }
        cpu.put("caches", CpuOverrides.caches(fitted.caches()));
        StringBuilder was = new StringBuilder("fitted bandwidths; were");
        for (FitParameter f : List.of(FitParameter.L1_BANDWIDTH, FitParameter.L2_BANDWIDTH, FitParameter.L3_BANDWIDTH)) {
            was.append(' ').append(f.label()).append(' ').append(r.fitted().contains(f)
                    ? Quantities.gigabytesPerSecond(before.get(f)) : "(kept)");
        }
        notes.put("cpu.caches", was.toString());
        Map<String, Object> dram = new LinkedHashMap<>();
        dram.put("bandwidth", CpuOverrides.curve(fitted.dram().bandwidth()));
        cpu.put("dram", dram);
        notes.put("cpu.dram.bandwidth", r.fitted().contains(FitParameter.DRAM_BANDWIDTH)
                ? "fitted (curve scaled); peak was " + Quantities.gigabytesPerSecond(before.get(FitParameter.DRAM_BANDWIDTH)) : "kept");
        Map<String, Object> overheads = new LinkedHashMap<>();
        overheads.put("launch", Quantities.microseconds(fitted.overheads().launchSeconds()));
        overheads.put("perRow", Quantities.cycles(fitted.overheads().perRowCycles()));
        overheads.put("perNnz", Quantities.cycles(fitted.overheads().perNnzCycles()));
        overheads.put("denseEfficiency", String.format(Locale.ROOT, "%.6f", fitted.overheads().denseEfficiency()));
        overheads.put("forkJoin", Quantities.microseconds(fitted.overheads().forkJoinSeconds()));
        overheads.put("imbalancePenalty", String.format(Locale.ROOT, "%.6f", fitted.overheads().imbalancePenalty()));
        StringBuilder formats = new StringBuilder();
        if (!fitted.overheads().perNnzCyclesByFormat().isEmpty()) {
            Map<String, Object> byFormat = new LinkedHashMap<>();
            for (Map.Entry<String, Double> e : fitted.overheads().perNnzCyclesByFormat().entrySet()) {
                byFormat.put(e.getKey(), Quantities.cycles(e.getValue()));
                formats.append(", perNnzByFormat.").append(e.getKey()).append(' ')
                        .append(Quantities.cycles(before.get(FitParameter.perNnzCycles(e.getKey()))));
            }
            overheads.put("perNnzByFormat", byFormat);
        }
        notes.put("overheads", String.format(Locale.ROOT,
                "were launch %s, perRow %s, perNnz %s, denseEfficiency %.3f, forkJoin %s, imbalancePenalty %.3f%s",
                Quantities.microseconds(before.get(FitParameter.LAUNCH_SECONDS)), Quantities.cycles(before.get(FitParameter.PER_ROW_CYCLES)),
                Quantities.cycles(before.get(FitParameter.PER_NNZ_CYCLES)), before.get(FitParameter.DENSE_EFFICIENCY),
                Quantities.microseconds(before.get(FitParameter.FORK_JOIN_SECONDS)), before.get(FitParameter.IMBALANCE_PENALTY), formats));
        if (fitted.inCore().present()) {
            InCoreRates k = fitted.inCore();
            Map<String, Object> inCore = new LinkedHashMap<>();
            inCore.put("vectorBits", k.vectorBits() + "bits");
            StringBuilder wasCore = new StringBuilder("ECM rates, fitted where a run depends on them; were");
            for (String key : CpuParameters.IN_CORE_KEYS) {
                FitParameter f = FitParameter.inCore(key);
                double v = r.after().get(f);
                inCore.put(key, key.equals("l2PerCore") ? Quantities.gigabytesPerSecond(v) : Quantities.cycles(v));
                if (r.fitted().contains(f)) {
                    wasCore.append(' ').append(key).append(' ').append(key.equals("l2PerCore")
                            ? Quantities.gigabytesPerSecond(before.get(f)) : Quantities.cycles(before.get(f)));
                }
            }
            if (k.fixedPartsApart()) {
                inCore.put("bsrTile", Quantities.cycles(k.bsrTileCycles()));
                inCore.put("nmRow", Quantities.cycles(k.nmRowCycles()));
            }
            if (k.nmDecodeSerial()) inCore.put("nmDecode", "serial");
            if (k.split2Cycles() > 0) inCore.put("split2", Quantities.cycles(k.split2Cycles()));
            if (k.split1Cycles() > 0) inCore.put("split1", Quantities.cycles(k.split1Cycles()));
            if (k.l3CoreBytesPerSecond() > 0) inCore.put("l3PerCore", Quantities.gigabytesPerSecond(k.l3CoreBytesPerSecond()));
            inCore.put("overlap", String.format(Locale.ROOT, "%.6f", k.overlap()));
            if (k.denseOverlapProbed()) inCore.put("denseOverlap", String.format(Locale.ROOT, "%.6f", k.denseOverlap()));
            CpuOverrides.gather(inCore, k.l2Gather(), k.fullyAssociativeReuse());
            if (k.slowestCore() > 0) inCore.put("slowestCore", String.format(Locale.ROOT, "%.3f", k.slowestCore()));
            CpuOverrides.team(inCore, k.team());
            CpuOverrides.oneColumn(inCore, k.oneColumn());
            cpu.put("inCore", inCore);
            notes.put("cpu.inCore", wasCore.toString());
        }
        Map<String, Object> overrides = new LinkedHashMap<>();
        overrides.put("name", fitted.name() + " (calibrated)");
        overrides.put("cpu", cpu);
        overrides.put("overheads", overheads);
        return new SpecOverlay(preset, provenance, overrides, notes);
    }

    /**
     * Loads the overlay and checks that the spec it gives predicts every case as the fit did (within
     * 0.1 %: the printed digits); returns it.
     */
    public static SpecOverlay checked(SpecOverlay overlay, CalibrationResult r, Path directory) {
        HardwareSpec loaded = overlay.check(directory);
        if (!(loaded instanceof CpuSpec cpu)) throw new SparseprofException("calibrate: the overlay loaded as a GPU spec");
        List<CalibrationCase> cases = new ArrayList<>(r.predictions().size());
        for (CasePrediction p : r.predictions()) cases.add(p.c());
        double[] got = CalibrationFit.predictAll(CpuParameters.of(cpu), cases);
        for (int i = 0; i < got.length; i++) {
            double want = r.predictions().get(i).afterSeconds();
            if (Math.abs(got[i] - want) > 1e-3 * want) {
                throw new SparseprofException("calibrate: the written overlay would predict " + cases.get(i).run().key() + " as "
                        + got[i] + " s, the fit " + want + " s; no spec written");
            }
        }
        return overlay;
    }
}

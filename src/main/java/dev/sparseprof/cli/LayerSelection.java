package dev.sparseprof.cli;

import dev.sparseprof.model.GemmLayer;
import dev.sparseprof.model.LayerKind;
import dev.sparseprof.model.Model;
import dev.sparseprof.util.SparseprofException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Picks a model's GEMM layers (embedding gathers are never multiplied) by name: exact names or
 * {@code *} globs, comma-separated. A name that matches nothing is bad input, and the message
 * lists a few real layer names.
 */
final class LayerSelection {
    private static final int NAMES_SHOWN = 5;

    private LayerSelection() {}

    static List<GemmLayer> gemmLayers(Model model) {
        List<GemmLayer> out = new ArrayList<>();
        for (GemmLayer l : model.layers()) if (l.kind() != LayerKind.EMBEDDING_GATHER) out.add(l);
        return out;
    }

    /** The GEMM layers matching any pattern of {@code patterns} (null: all), in model order. */
    static List<GemmLayer> select(Model model, String patterns, String option) {
        List<GemmLayer> all = gemmLayers(model);
        if (all.isEmpty()) throw SparseprofException.in(model.source(), "no GEMM layers to measure");
        if (patterns == null) return all;
        List<GemmLayer> out = new ArrayList<>();
        for (String p : patterns.split(",")) {
            Pattern glob = Pattern.compile(Pattern.quote(p.trim()).replace("*", "\\E.*\\Q"));
            boolean any = false;
            for (GemmLayer l : all) {
                if (glob.matcher(l.name()).matches()) {
                    any = true;
                    if (!out.contains(l)) out.add(l);
                }
            }
            if (!any) throw unknown(model, all, option, p.trim());
        }
        return out;
    }

    /** Exactly one layer by name. */
    static GemmLayer one(Model model, String name, String option) {
        List<GemmLayer> all = gemmLayers(model);
        for (GemmLayer l : all) if (l.name().equals(name)) return l;
        throw unknown(model, all, option, name);
    }

    private static SparseprofException unknown(Model model, List<GemmLayer> all, String option, String name) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < Math.min(NAMES_SHOWN, all.size()); i++) names.add(all.get(i).name());
        String more = all.size() > NAMES_SHOWN ? ", ... (" + all.size() + " GEMM layers)" : "";
        return new SparseprofException(option + ": no layer '" + name + "' in " + model.source() + " (layers: " + String.join(", ", names) + more + ")");
    }
}

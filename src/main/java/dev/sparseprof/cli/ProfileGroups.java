package dev.sparseprof.cli;

import dev.sparseprof.model.HfConfig;
import dev.sparseprof.model.LayerLabel;
import dev.sparseprof.model.LayerLabels;
import dev.sparseprof.model.Model;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The profile table's per-block grouping of a checkpoint's layers (Hugging Face folders, GGUF, any
 * model with config.json facts): rows sorted by block, and within a block by role (q k v o, then
 * the FFN's gate up down, experts in order), a rule between blocks, and short names
 * ({@code b0 q}, {@code b3 e7.down}) so that the table stays within 120 columns; the JSON and CSV
 * keep the checkpoint's own parameter names with the labels beside them. Other models keep their
 * layer order and names, and get no labels.
 */
final class ProfileGroups {
    private static final List<String> ROLE_ORDER = List.of("embed", "q", "k", "v", "qkv", "o", "router", "gate", "up", "gate_up", "down", "head");

    private final List<LayerLabel> labels;
    private final List<String> names;
    private final boolean grouped;
    private final int[] order;
    private final List<String> skipped;
    private final List<String> readAs;
    /** The metadata keys of a reader's notes on weights read otherwise than stored ({@code layers.transposed}, {@code layers.tied}). */
    private static final String READ_AS = "layers.";

    private ProfileGroups(List<LayerLabel> labels, List<String> names, boolean grouped, List<String> skipped, List<String> readAs) {
        this.skipped = skipped;
        this.readAs = readAs;
        this.labels = labels;
        this.names = names;
        this.grouped = grouped;
        Integer[] idx = new Integer[labels.size()];
        for (int i = 0; i < idx.length; i++) idx[i] = i;
        if (grouped) Arrays.sort(idx, (a, b) -> compare(labels.get(a), labels.get(b), a, b));
        this.order = new int[idx.length];
        for (int i = 0; i < idx.length; i++) order[i] = idx[i];
    }

    static ProfileGroups of(Model m) {
        List<String> names = new ArrayList<>();
        for (var l : m.layers()) names.add(l.name());
        boolean checkpoint = HfConfig.of(m) != null || m.format().equals("hf") || m.format().equals("gguf");
        List<LayerLabel> labels = checkpoint ? LayerLabels.of(m) : new ArrayList<>();
        boolean anyBlock = false;
        for (LayerLabel l : labels) anyBlock |= l.block() >= 0;
        if (!checkpoint) for (int i = 0; i < names.size(); i++) labels.add(LayerLabel.NONE);
        List<String> skipped = new ArrayList<>();
        List<String> readAs = new ArrayList<>();
        for (var e : m.metadata().entrySet()) {
            if (e.getKey().endsWith(".skipped")) skipped.add(e.getValue());
            if (e.getKey().startsWith(READ_AS)) readAs.add(e.getValue());
        }
        skipped.sort(null);
        readAs.sort(null);
        return new ProfileGroups(labels, names, checkpoint && anyBlock, skipped, readAs);
    }

    private static int compare(LayerLabel x, LayerLabel y, int a, int b) {
        int c = Integer.compare(groupKey(x), groupKey(y));
        if (c != 0) return c;
        c = Integer.compare(x.expert(), y.expert());
        if (c != 0) return c;
        c = Integer.compare(roleRank(x.role()), roleRank(y.role()));
        return c != 0 ? c : Integer.compare(a, b);
    }

    /** Embeddings before the blocks, anything else outside the blocks after them. */
    private static int groupKey(LayerLabel l) {
        if (l.block() >= 0) return l.block();
        return l.role().equals("embed") ? -1 : Integer.MAX_VALUE;
    }

    private static int roleRank(String role) {
        int i = ROLE_ORDER.indexOf(role);
        return i < 0 ? ROLE_ORDER.size() : i;
    }

    /** Layer indices in table order. */
    int[] order() {
        return order.clone();
    }

    LayerLabel label(int layer) {
        return labels.get(layer);
    }

    boolean startsGroup(int previous, int layer) {
        return grouped && groupKey(labels.get(previous)) != groupKey(labels.get(layer));
    }

    String tableName(int layer) {
        if (!grouped) return names.get(layer);
        LayerLabel l = labels.get(layer);
        String name = l.role().isEmpty() ? names.get(layer) : l.shortLabel();
        if (l.block() >= 0) name = "b" + l.block() + " " + name;
        return l.disagreement() != null ? name + " (!)" : name;
    }

    /** The model's notes on tensors it left out of the numbers (GGUF types not decoded, packed integer weights). */
    List<String> skipped() {
        return skipped;
    }

    /** The model's notes on weights read otherwise than as stored (Conv1D weights transposed, a tied output projection). */
    List<String> readAs() {
        return readAs;
    }

    /** The notes on what was left out and what was read otherwise, then the grouping's legend. */
    String notes() {
        StringBuilder sb = new StringBuilder();
        for (String s : skipped) sb.append("note: ").append(s).append('\n');
        for (String s : readAs) sb.append("note: ").append(s).append('\n');
        if (!grouped) return sb.toString();
        sb.append("layers: bN ROLE is block N's ROLE (q k v o attention, gate up down FFN, eE. expert E); "
                + "--json and --csv give the parameter names\n");
        int disagree = 0;
        String first = null;
        for (int i = 0; i < labels.size(); i++) {
            if (labels.get(i).disagreement() == null) continue;
            if (disagree++ == 0) first = names.get(i) + ": " + labels.get(i).disagreement();
        }
        if (disagree > 0) {
            sb.append(String.format(Locale.ROOT, "(!) %d %s disagree with config.json, e.g. %s%n", disagree, disagree == 1 ? "layer's shape does" : "layers' shapes", first));
        }
        return sb.toString();
    }
}

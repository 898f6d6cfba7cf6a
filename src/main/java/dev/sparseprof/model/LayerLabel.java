package dev.sparseprof.model;

/**
 * What a layer is in a transformer, read from its parameter name and checked against the
 * architecture facts of {@code config.json} ({@link HfConfig}) where the checkpoint has them.
 *
 * @param block the block (decoder/encoder layer) index, or -1 outside the blocks (embeddings, head)
 * @param role {@code q k v o qkv gate up down gate_up router embed head}, or empty when the name says nothing known
 * @param expert the MoE expert index, or -1
 * @param disagreement null, or why the layer's shape disagrees with config.json for that role
 */
public record LayerLabel(int block, String role, int expert, String disagreement) {
    public static final LayerLabel NONE = new LayerLabel(-1, "", -1, null);

    public LayerLabel {
        if (block < -1 || expert < -1) throw new IllegalArgumentException("block and expert are indices or -1");
        if (role == null) throw new IllegalArgumentException("role is a string");
    }

    /** Short text for a table: {@code q}, {@code e3.down}, {@code embed}; empty when nothing is known. */
    public String shortLabel() {
        return expert >= 0 ? "e" + expert + "." + role : role;
    }

    public boolean known() {
        return !role.isEmpty() || block >= 0;
    }
}

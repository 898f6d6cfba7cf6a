package dev.sparseprof.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Mixture-of-experts routing: the router sends each token to {@code k} of a block's {@code E}
 * routed experts, so an expert's layers multiply {@code k / E} of a batch's tokens on average
 * (uniform routing), and a batch of N tokens costs the experts {@code N·k} expert-passes, not
 * {@code N·E}. The facts come from config.json ({@code num_local_experts} / {@code num_experts},
 * {@code num_experts_per_tok}) or GGUF ({@code expert_count}, {@code expert_used_count}) as
 * {@code config.experts} and {@code config.experts_per_token}; the routed layers are named so
 * ({@link LayerLabels#isRoutedExpert}): per-expert weights and stacked or fused expert tensors, not
 * the router and not shared experts. Each gets {@link GemmLayer#withTokenShare}. A decode step
 * (N below E / k) still reads every expert's weights here, where a real one reads only those its
 * tokens were routed to.
 */
final class RoutedExperts {
    private RoutedExperts() {}

    /** {@code layers}, each routed expert's seeing {@code k / E} of the tokens; notes {@code layers.routed} in {@code metadata}. */
    static List<GemmLayer> apply(List<GemmLayer> layers, Map<String, String> metadata) {
        int experts = HfConfig.fact(metadata, "config.experts");
        int perToken = HfConfig.fact(metadata, "config.experts_per_token");
        if (experts <= 0 || perToken <= 0 || perToken >= experts) return layers;
        double share = (double) perToken / experts;
        List<GemmLayer> out = new ArrayList<>(layers.size());
        int routed = 0;
        for (GemmLayer l : layers) {
            boolean expert = LayerLabels.isRoutedExpert(l.tensorName());
            out.add(expert ? l.withTokenShare(share) : l);
            routed += expert ? 1 : 0;
        }
        if (routed > 0) {
            metadata.put("layers.routed", routed + " routed expert layers multiply " + perToken + " of " + experts
                    + " experts' share of the tokens (N·" + perToken + "/" + experts + ", uniform routing)");
        }
        return out;
    }

}

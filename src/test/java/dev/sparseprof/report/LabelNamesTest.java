package dev.sparseprof.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class LabelNamesTest {
    @Test
    void sharedPathPrefixAndSuffixGo() {
        assertEquals(List.of("layer.0/attention/self/query", "layer.0/attention/self/key", "layer.5/output/dense"),
                LabelNames.shorten(List.of("/encoder/layer.0/attention/self/query/MatMul", "/encoder/layer.0/attention/self/key/MatMul",
                        "/encoder/layer.5/output/dense/MatMul")));
    }

    @Test
    void cutsOnlyAtSeparatorsAndKeepsCollidingNamesWhole() {
        assertEquals(List.of("a", "b"), LabelNames.shorten(List.of("a/x/MatMul", "b/x/MatMul")));
        assertEquals(List.of("fc1", "fc2"), LabelNames.shorten(List.of("fc1", "fc2")));
        assertEquals(List.of("same", "same"), LabelNames.shorten(List.of("same", "same")));
    }
}

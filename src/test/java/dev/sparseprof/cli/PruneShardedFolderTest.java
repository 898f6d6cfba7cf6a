package dev.sparseprof.cli;

import static dev.sparseprof.cli.ModelCommandsTest.map;
import static dev.sparseprof.cli.ModelCommandsTest.run;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sparseprof.cli.ModelCommandsTest.Result;
import dev.sparseprof.model.HfFixtures;
import dev.sparseprof.model.Model;
import dev.sparseprof.model.Models;
import dev.sparseprof.model.Tensor;
import dev.sparseprof.util.Json;
import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sharded Hugging Face folder pruned into a folder: its shards are written side by side (the
 * writers take different files), and every shard holds the source shard's tensors with the
 * bytes that the same prune writes into one safetensors file (where the writers share one file).
 */
class PruneShardedFolderTest {
    @TempDir Path dir;

    @Test
    void eachShardHoldsItsTensorsWithTheBytesOfTheOneFilePrune() throws IOException {
        Path source = HfFixtures.write(dir.resolve("llama"));
        for (String[] spec : List.of(new String[] {"--nm", "2:4"}, new String[] {"--sparsity", "0.5"}, new String[] {"--sparsity", "0.5", "--scope", "global"})) {
            Path folder = dir.resolve("pruned-" + String.join("", spec).replace(":", "").replace(".", ""));
            Path one = dir.resolve(folder.getFileName() + ".safetensors");
            for (Path out : List.of(folder, one)) {
                String[] args = new String[spec.length + 4];
                args[0] = "prune";
                args[1] = source.toString();
                System.arraycopy(spec, 0, args, 2, spec.length);
                args[spec.length + 2] = "--out";
                args[spec.length + 3] = out.toString();
                Result r = run(args);
                assertEquals(0, r.code(), r.err());
            }
            Map<String, byte[]> want = new HashMap<>();
            try (Model m = Models.open(one)) {
                for (Tensor t : m.tensors()) want.put(t.name(), t.data().toArray(ValueLayout.JAVA_BYTE));
            }
            Map<String, Object> sourceMap = map(Json.parseObject(Files.readString(source.resolve("model.safetensors.index.json"))).get("weight_map"));
            Map<String, Object> outMap = map(Json.parseObject(Files.readString(folder.resolve("model.safetensors.index.json"))).get("weight_map"));
            assertEquals(sourceMap, outMap, "every tensor in the shard it came from");
            int seen = 0;
            for (String shard : List.of("model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors")) {
                try (Model src = Models.open(source.resolve(shard)); Model got = Models.open(folder.resolve(shard))) {
                    assertEquals(src.tensors().stream().map(Tensor::name).sorted().toList(), got.tensors().stream().map(Tensor::name).sorted().toList(), shard);
                    for (Tensor t : got.tensors()) {
                        assertArrayEquals(want.get(t.name()), t.data().toArray(ValueLayout.JAVA_BYTE), String.join(" ", spec) + ": " + t.name());
                        seen++;
                    }
                }
            }
            assertEquals(want.size(), seen);
        }
    }
}

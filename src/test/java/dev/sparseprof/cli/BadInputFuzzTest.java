package dev.sparseprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.cli.InputSubjects.Subject;
import dev.sparseprof.cli.Mutants.Mutant;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Seeded mutation fuzzing of every input the CLI reads ({@link InputSubjects}): each mutant of the
 * valid fixture either still reads (exit 0) or is refused by the contract of {@link BadInput}
 * (exit 2, one line naming the file, no stack text, nothing written, heap bounded by the file).
 * Never exit 1, never a throwable out of {@code Main.run}. Mutants that cannot be valid (an
 * unknown key in strict YAML, nesting past the limits, a shard path that leaves the folder) must
 * be refused.
 */
class BadInputFuzzTest {
    /** The seed of every mutant; a failure's label plus this seed reproduces it. */
    static final long SEED = 13;

    @TempDir Path dir;

    static List<Subject> subjects() {
        return InputSubjects.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("subjects")
    void everyMutantReadsOrIsRefusedInOneLine(Subject subject) throws IOException {
        long started = System.nanoTime();
        Path folder = Files.createDirectories(dir.resolve(subject.name() + "-in"));
        Path out = Files.createDirectories(dir.resolve(subject.name() + "-out"));
        subject.writer().write(folder);
        Path target = folder.resolve(subject.mutated());
        byte[] valid = Files.readAllBytes(target);
        long inputBytes = folderBytes(folder);

        BadInput.Outcome baseline = BadInput.run(subject + " (valid)", subject.args().of(folder, out));
        assertEquals(Main.EXIT_OK, baseline.code(), baseline.describe());
        clear(out);

        Mutants m = new Mutants(SEED ^ subject.name().hashCode());
        List<Mutant> mayPass = new ArrayList<>();
        List<Mutant> mustFail = new ArrayList<>();
        if (subject.text()) {
            String text = new String(valid, StandardCharsets.UTF_8);
            mayPass.addAll(m.textTruncations(text, subject.count(16)));
            mayPass.addAll(m.lyingNumbers(text, subject.count(20)));
            mayPass.addAll(m.junkInNames(text, subject.count(16)));
            for (String ref : subject.references()) mustFail.addAll(m.hostilePaths(text, ref));
            mustFail.addAll(deepNesting(subject, text));
            if (subject.strictKeys()) mustFail.add(Mutants.text("unknown key", "zz_unknown_key: 1\n" + text));
        } else {
            mayPass.addAll(m.truncations(valid, subject.count(24)));
            mayPass.addAll(m.byteFlips(valid, subject.count(24)));
            mayPass.addAll(m.lyingIntegers(valid, subject.count(40)));
        }
        int refused = 0;
        for (List<Mutant> group : List.of(mayPass, mustFail)) {
            for (Mutant mutant : group) {
                Files.write(target, mutant.bytes());
                BadInput.Outcome o = BadInput.run(subject + ": " + mutant.label(), subject.args().of(folder, out));
                BadInput.check(o, subject.mutated(), inputBytes + mutant.bytes().length, out, group == mayPass, baseline);
                if (o.code() != Main.EXIT_OK) refused++;
                clear(out);
            }
        }
        Files.write(target, valid);
        if (Boolean.getBoolean("badinput.timing")) System.out.println("TIMING " + subject + " " + (System.nanoTime() - started) / 1_000_000 + " ms, " + (mayPass.size() + mustFail.size()) + " mutants, " + refused + " refused");
        assertTrue(refused >= mustFail.size() + mayPass.size() / 4, subject + ": only " + refused + " of " + (mayPass.size() + mustFail.size())
                + " mutants refused; the mutations miss the format");
    }

    /** Nesting far past any limit: JSON arrays, YAML flow sequences and block mappings. */
    private static List<Mutant> deepNesting(Subject subject, String text) {
        List<Mutant> out = new ArrayList<>();
        int depth = 20_000;
        String flow = "[".repeat(depth) + "1" + "]".repeat(depth);
        if (subject.mutated().endsWith(".json")) {
            int colon = text.indexOf(':');
            if (colon > 0) out.add(Mutants.text("JSON nested " + depth + " deep", text.substring(0, colon + 1) + flow + skipValue(text, colon + 1)));
        } else if (subject.mutated().endsWith(".yaml")) {
            out.add(Mutants.text("YAML flow nested " + depth + " deep", text + "deep: " + flow + "\n"));
            StringBuilder block = new StringBuilder(text).append("deep:\n");
            for (int i = 1; i < 200; i++) block.append(" ".repeat(i)).append("k:\n");
            out.add(Mutants.text("YAML block nested 200 deep", block.toString()));
        }
        return out;
    }

    /** The text after the JSON scalar or bracketed value that starts at {@code from}. */
    private static String skipValue(String text, int from) {
        int i = from;
        while (i < text.length() && Character.isWhitespace(text.charAt(i))) i++;
        if (i < text.length() && (text.charAt(i) == '[' || text.charAt(i) == '{')) {
            int level = 0;
            boolean quoted = false;
            for (; i < text.length(); i++) {
                char c = text.charAt(i);
                if (c == '"' && text.charAt(i - 1) != '\\') quoted = !quoted;
                if (quoted) continue;
                if (c == '[' || c == '{') level++;
                if (c == ']' || c == '}') level--;
                if (level == 0) return text.substring(i + 1);
            }
            return "";
        }
        if (i < text.length() && text.charAt(i) == '"') {
            int end = text.indexOf('"', i + 1);
            return text.substring(end + 1);
        }
        while (i < text.length() && ",}] \n".indexOf(text.charAt(i)) < 0) i++;
        return text.substring(i);
    }

    private static long folderBytes(Path folder) throws IOException {
        try (Stream<Path> s = Files.walk(folder)) {
            long n = 0;
            for (Path p : s.filter(Files::isRegularFile).toList()) n += Files.size(p);
            return n;
        }
    }

    static void clear(Path folder) throws IOException {
        try (Stream<Path> s = Files.walk(folder)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) if (!p.equals(folder)) Files.delete(p);
        }
    }
}

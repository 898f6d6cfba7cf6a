package dev.sparseprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every example command of README.md runs as written: each {@code ./sparseprof ...} line of its
 * fenced code blocks is split as a shell would (quotes, a trailing {@code # comment}) and run
 * in-process, in order (later examples read what earlier ones wrote); it must exit 0 and print
 * something. {@code /tmp/} paths go to a temporary folder. Skipped, each with its reason: the test
 * command itself, examples that need a GPU ({@code --device gpu}), and examples that read the npm
 * fixtures when {@code target/npm} is absent.
 */
class ReadmeExamplesTest {
    @TempDir
    static Path tmp;

    /** The README's example command lines, in order. */
    static List<String> examples(String readme) {
        List<String> out = new ArrayList<>();
        boolean inBlock = false;
        for (String line : readme.split("\n")) {
            String t = line.strip();
            if (t.startsWith("```")) {
                inBlock = !inBlock;
                continue;
            }
            if (inBlock && (t.startsWith("./sparseprof ") || t.equals("./test.sh"))) out.add(t);
        }
        return out;
    }

    /** Shell-like words: single and double quotes group, an unquoted {@code #} starts a comment. */
    static List<String> words(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder w = new StringBuilder();
        boolean any = false;
        char quote = 0;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quote != 0) {
                if (c == quote) quote = 0;
                else w.append(c);
            } else if (c == '\'' || c == '"') {
                quote = c;
                any = true;
            } else if (c == '#' && w.isEmpty() && !any) {
                break;
            } else if (Character.isWhitespace(c)) {
                if (any || !w.isEmpty()) out.add(w.toString());
                w.setLength(0);
                any = false;
            } else {
                w.append(c);
            }
        }
        if (any || !w.isEmpty()) out.add(w.toString());
        return out;
    }

    @TestFactory
    List<DynamicTest> everyReadmeExampleRunsAsWritten() throws IOException {
        List<String> examples = examples(Files.readString(Path.of("README.md")));
        assertTrue(examples.size() >= 5, "the README's examples: " + examples);
        assertEquals("./sparseprof simulate --hw hardware-specs/a100.yaml", examples.get(0));
        List<DynamicTest> tests = new ArrayList<>();
        for (String example : examples) {
            tests.add(DynamicTest.dynamicTest(example, () -> {
                Assumptions.assumeFalse(example.equals("./test.sh"), "./test.sh is this test suite");
                Assumptions.assumeFalse(example.contains("--device gpu"), "needs a GPU");
                Assumptions.assumeFalse(example.contains("target/npm") && !Files.isDirectory(Path.of("target", "npm")),
                        "needs the npm fixtures test.sh installs");
                List<String> args = new ArrayList<>();
                for (String w : words(example.substring("./sparseprof ".length()))) {
                    args.add(w.startsWith("/tmp/") ? tmp.resolve(w.substring(5)).toString() : w);
                }
                StringWriter out = new StringWriter();
                StringWriter err = new StringWriter();
                int code = Main.run(args.toArray(String[]::new), new PrintWriter(out), new PrintWriter(err));
                assertEquals(0, code, example + "\n" + err);
                assertFalse(out.toString().isBlank(), example + " printed nothing");
            }));
        }
        return tests;
    }
}

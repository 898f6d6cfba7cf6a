package dev.sparseprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code ./sparseprof} launcher in a copy of the repository's layout with a stub {@code mvn}
 * (which records that it ran and makes the jar) and a stub JDK (whose {@code java} prints its
 * arguments): it builds when a source, a spec or the pom is newer than the last build or the jar is
 * missing, and only then; it picks the JVM options of each command's group; and it drops the
 * Vector API's boot warning without holding back the bytes after it.
 */
class LauncherTest {
    @TempDir Path root;
    private Path mvnLog;
    private Path bin;
    private Path jdk;

    @BeforeEach
    void layout() throws IOException {
        Files.createDirectories(root.resolve(".ci"));
        Files.copy(Path.of("sparseprof"), root.resolve("sparseprof"));
        Files.copy(Path.of(".ci/java-home.sh"), root.resolve(".ci/java-home.sh"));
        Files.createDirectories(root.resolve("src/main/java/dev"));
        Files.writeString(root.resolve("src/main/java/dev/A.java"), "class A {}\n");
        Files.createDirectories(root.resolve("hardware-specs"));
        Files.writeString(root.resolve("hardware-specs/x.yaml"), "name: x\n");
        Files.writeString(root.resolve("pom.xml"), "<project/>\n");
        mvnLog = root.resolve("mvn.log");
        bin = Files.createDirectories(root.resolve("stub-bin"));
        executable(bin.resolve("mvn"), """
                #!/usr/bin/env bash
                echo "mvn $*" >> "%s"
                mkdir -p target/lib
                echo jar > target/sparseprof-0.1.0-SNAPSHOT.jar
                echo lib > target/lib/dep.jar
                """.formatted(mvnLog));
        jdk = Files.createDirectories(root.resolve("stub-jdk/bin"));
        Files.writeString(root.resolve("stub-jdk/release"), "IMPLEMENTOR=\"stub\"\nJAVA_VERSION=\"25.0.1\"\n");
        executable(jdk.resolve("java"), """
                #!/usr/bin/env bash
                case " $* " in *" jdk.incubator.vector "*) echo "WARNING: Using incubator modules: jdk.incubator.vector" >&2 ;; esac
                echo "java $*"
                printf 'after the warning\\n' >&2
                """);
    }

    @Test
    void buildsOnlyWhenTheBuildIsMissingOrOlderThanASource() throws Exception {
        assertEquals(0, run("--version").code);
        assertEquals(1, builds(), "first run: no build yet");
        run("--version");
        assertEquals(1, builds(), "fresh: no build");
        for (String source : List.of("src/main/java/dev/A.java", "hardware-specs/x.yaml", "pom.xml")) {
            Files.writeString(root.resolve(source), "\n", StandardOpenOption.APPEND);
            later(root.resolve(source));
            int before = builds();
            run("--version");
            assertEquals(before + 1, builds(), "edited " + source);
            run("--version");
            assertEquals(before + 1, builds(), "fresh again after building for " + source);
        }
        Path added = root.resolve("src/main/java/dev/B.java");
        Files.writeString(added, "class B {}\n");
        later(added);
        int before = builds();
        run("--help");
        assertEquals(before + 1, builds(), "a new source file");
        Files.delete(root.resolve("target/sparseprof-0.1.0-SNAPSHOT.jar"));
        run("--help");
        assertEquals(before + 2, builds(), "the jar is gone");
    }

    @Test
    void eachGroupGetsItsJvmOptionsAndArchive() throws Exception {
        run("--version"); // builds
        Result version = run("--version");
        assertTrue(version.out.contains("-XX:TieredStopAtLevel=1"), version.out);
        assertTrue(version.out.contains("target/cds/version.jsa"), version.out);
        assertFalse(version.out.contains("jdk.incubator.vector"), version.out);
        assertTrue(version.out.contains("dev.sparseprof.cli.Main --version"), version.out);
        assertTrue(run("--help").out.contains("target/cds/help.jsa"));
        Result cachesim = run("cachesim", "--trace", "t.din", "--level", "L1:32k:8:64"); // no such file: not known to be short
        assertTrue(cachesim.out.contains("-XX:AOTMode=record -XX:AOTConfiguration=" + root.resolve("target/cds/cachesim.aot.")),
                "no AOT cache yet: this run trains one: " + cachesim.out);
        assertFalse(run("cachesim", "--list", "--trace", "t.din").out.contains("AOT"), "--list does not train");
        Path cache = root.resolve("target/cds/cachesim.aot");
        Files.writeString(cache, "cache");
        Result cached = run("cachesim", "--trace", "t.din", "--level", "L1:32k:8:64");
        assertTrue(cached.out.contains("-XX:AOTCache=" + cache + " "), cached.out);
        assertFalse(cached.out.contains("AOTMode=record"), cached.out);
        assertFalse(cachesim.out.contains("jdk.incubator.vector"), cachesim.out);
        assertFalse(cachesim.out.contains("TieredStopAtLevel"), cachesim.out);
        assertTrue(cachesim.out.contains("-cp " + root.resolve("target/sparseprof-0.1.0-SNAPSHOT.jar") + ":"
                + root.resolve("target/lib/dep.jar") + " "), cachesim.out);
        Files.writeString(root.resolve("small.din"), "0 1000\n");
        Result small = run("cachesim", "--trace", "small.din", "--level", "L1:32k:8:64");
        assertTrue(small.out.contains("-XX:TieredStopAtLevel=1") && small.out.contains("cds/cachesim-short.aot"), small.out);
        try (var f = new RandomAccessFile(root.resolve("long.din").toFile(), "rw")) {
            f.setLength(40L << 20); // sparse: 40 MiB of din text is a long trace
        }
        Result big = run("cachesim", "--trace=long.din", "--level", "L1:32k:8:64");
        assertFalse(big.out.contains("TieredStopAtLevel"), big.out);
        try (var f = new RandomAccessFile(root.resolve("long.din.gz").toFile(), "rw")) {
            f.setLength(12L << 20); // 12 MiB of gzip: about 36 MiB of text
        }
        assertFalse(run("cachesim", "--trace", "long.din.gz").out.contains("TieredStopAtLevel"));
        assertFalse(run("cachesim", "--trace", "missing.din").out.contains("TieredStopAtLevel"), "Java names the missing file");
        Result profile = run("profile", "--help");
        assertTrue(profile.out.contains("--add-modules jdk.incubator.vector"), profile.out);
        assertTrue(profile.out.contains("target/cds/run-profile.jsa"), profile.out);
        assertTrue(profile.out.contains("-XX:CompileCommand=quiet -XX:CompileCommand=CompileThresholdScaling,dev.sparseprof.model.StoredBits::*Vector,0.01 "),
                "the scan's vector loops reach C2 early, and the JVM prints nothing of it: " + profile.out);
        assertFalse(cachesim.out.contains("CompileCommand"), cachesim.out);
        Path thp = Path.of("/sys/kernel/mm/transparent_hugepage/enabled");
        boolean offered = Files.isReadable(thp) && Files.readString(thp).matches("(?s).*\\[(always|madvise)\\].*");
        assertEquals(offered, profile.out.contains("-XX:+UseTransparentHugePages"), "profile's heap on huge pages where the kernel offers them: " + profile.out);
        assertEquals(offered, cachesim.out.contains("-XX:+UseTransparentHugePages"), "a long trace's heap on huge pages too: " + cachesim.out);
        assertEquals(offered, run("simulate", "--help").out.contains("-XX:+UseTransparentHugePages"), "simulate scans checkpoints as profile does");
        assertFalse(small.out.contains("UseTransparentHugePages"), "a short trace keeps small pages: " + small.out);
        assertTrue(run("help", "cachesim").out.contains("target/cds/run-help.jsa"), "help COMMAND loads the command in full");
        assertTrue(run("simulate", "--published", "p.yaml").out.contains("target/cds/run-simulate-published.jsa"),
                "a run without a model makes its own archive, not the model runs'");
        assertTrue(run("simulate", "--model", "m.onnx").out.contains("target/cds/run-simulate.jsa"));
    }

    @Test
    void dropsTheIncubatorWarningAndNothingElse() throws Exception {
        run("--version"); // builds
        Result profile = run("profile");
        assertFalse(profile.err.contains("WARNING: Using incubator modules"), profile.err);
        assertEquals("after the warning\n", profile.err);
        Result cachesim = run("cachesim");
        assertEquals("after the warning\n", cachesim.err);
    }

    @Test
    void anArchiveOlderThanTheJarIsMadeAgain() throws Exception {
        run("--version"); // builds
        Path jar = root.resolve("target/sparseprof-0.1.0-SNAPSHOT.jar");
        Path cds = Files.createDirectories(root.resolve("target/cds"));
        Path stale = cds.resolve("version.jsa");
        Path fresh = cds.resolve("help.jsa");
        Files.writeString(stale, "old");
        Files.writeString(fresh, "new");
        Files.setLastModifiedTime(stale, FileTime.from(Instant.now().minusSeconds(60)));
        Files.setLastModifiedTime(jar, FileTime.from(Instant.now().minusSeconds(30)));
        run("--version");
        assertFalse(Files.exists(stale), "an archive from before the build is removed, for the JVM to write again");
        run("--help");
        assertTrue(Files.exists(fresh), "a newer archive is kept");
        Path staleCache = cds.resolve("cachesim.aot");
        Files.writeString(staleCache, "old");
        Files.setLastModifiedTime(staleCache, FileTime.from(Instant.now().minusSeconds(60)));
        Result r = run("cachesim", "--trace", "t.din");
        assertFalse(Files.exists(staleCache), "an AOT cache from before the build is removed");
        assertTrue(r.out.contains("-XX:AOTMode=record"), "and trained again: " + r.out);
    }

    @Test
    void classpathOverrideNeitherBuildsNorArchives() throws Exception {
        Result r = run(List.of("SPARSEPROF_CLASSPATH=/some/classes"), "cachesim");
        assertEquals(0, builds());
        assertTrue(r.out.contains("-cp /some/classes "), r.out);
        assertFalse(r.out.contains("SharedArchiveFile"), r.out);
        assertFalse(r.out.contains("AOT"), r.out);
    }

    private int builds() throws IOException {
        return Files.exists(mvnLog) ? Files.readAllLines(mvnLog).size() : 0;
    }

    /** Puts the file's time after the last build's and both in the past, as an edit after a build would. */
    private void later(Path p) throws IOException {
        Files.setLastModifiedTime(root.resolve("target/.built"), FileTime.from(Instant.now().minusSeconds(10)));
        Files.setLastModifiedTime(p, FileTime.from(Instant.now().minusSeconds(5)));
    }

    record Result(int code, String out, String err) {}

    private Result run(String... args) throws Exception {
        return run(List.of(), args);
    }

    private Result run(List<String> env, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("env", "JAVA_HOME=" + root.resolve("stub-jdk"),
                "PATH=" + bin + ":" + System.getenv("PATH")));
        cmd.addAll(env);
        cmd.add(root.resolve("sparseprof").toString());
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(root.toFile());
        pb.environment().remove("SPARSEPROF_CLASSPATH");
        Path out = root.resolve("out.txt");
        Path err = root.resolve("err.txt");
        pb.redirectOutput(out.toFile()).redirectError(err.toFile());
        Process p = pb.start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "launcher finished");
        return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }

    private static void executable(Path p, String text) throws IOException {
        Files.writeString(p, text);
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}

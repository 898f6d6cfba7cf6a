#!/usr/bin/env bash
# Makes the self-contained Java runtime the GPU device machine needs (it has no Java): a jlink'ed
# JRE with the modules the CLI needs (found by jdeps over our classes and the runtime jars), plus the
# application jar and its dependency jars, into validation/gpu/runtime/ (git-ignored; the device
# tool carries it: carry=["validation/gpu/runtime"]). Left out, to stay under 50 MB: the bundled-model
# jars (83 MB; the GPU cases use MiniLM-shaped synthetic weights), jfreechart (HTML charts are not
# drawn there; it alone pulls in java.desktop), and of jcuda-natives every binding but the driver's.
# Native libraries are stripped when `strip` is there. Fails (exit 2) at 50 MB or more; prints the size.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
source .ci/java-home.sh
mvn -q -B -ntp -o package -DskipTests >&2
out="$here/validation/gpu/runtime"
rm -rf "$out"
mkdir -p "$out/app/lib"
jars=()
for j in target/lib/*.jar; do
  case "$(basename "$j")" in
    langchain4j-embeddings-*) ;;                       # the bundled MiniLM model: not needed on the GPU machine
    jcuda-natives-*) ;;                                # trimmed below
    jfreechart-*) ;;                                   # charts: not drawn on the GPU machine
    *) jars+=("$j") ;;
  esac
done
modules="$("$JAVA_HOME/bin/jdeps" --multi-release 25 --ignore-missing-deps --print-module-deps "${jars[@]}" target/classes)"
# java.desktop is referred to only by the HTML charts (dev.sparseprof.report.Charts, with jfreechart,
# which stays behind) and by commons-math3's 2-D geometry (java.awt.geom.AffineTransform), which the
# fits never load: drop it when nothing else refers to it. (simulate --html cannot run on that runtime.)
other_desktop="$("$JAVA_HOME/bin/jdeps" --multi-release 25 --ignore-missing-deps -verbose:class "${jars[@]}" target/classes \
  | grep -E '^\s.*java\.desktop' | grep -v -e 'org.apache.commons.math3.geometry' -e 'dev.sparseprof.report.Charts' || true)"
if [[ -z "$other_desktop" ]]; then modules="$(echo "$modules" | tr ',' '\n' | grep -vx java.desktop | paste -sd,)"; fi
"$JAVA_HOME/bin/jlink" --add-modules "$modules" --compress zip-9 --strip-debug --no-header-files --no-man-pages \
  --output "$out/jre"
if command -v strip >/dev/null; then
  find "$out/jre" -name '*.so' -exec strip --strip-unneeded {} \;
fi
cp "${jars[@]}" "$out/app/lib/"
# jcuda-natives holds every JCuda binding (cuBLAS, cuFFT, ...); the runner uses the driver API only.
natives="$(ls "$here"/target/lib/jcuda-natives-*.jar)"
tmp="$(mktemp -d)"
(cd "$tmp" && "$JAVA_HOME/bin/jar" xf "$natives" && find . -name '*.so' ! -name 'libJCudaDriver-*' -delete \
  && "$JAVA_HOME/bin/jar" cf "$out/app/lib/$(basename "$natives")" .)
rm -rf "$tmp"
(cd target/classes && "$JAVA_HOME/bin/jar" cf "$out/app/sparseprof.jar" .)
cat > "$out/sparseprof" <<'LAUNCH'
#!/usr/bin/env bash
# The CLI on the bundled runtime (no system Java needed).
rt="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
exec "$rt/jre/bin/java" --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED -Djava.awt.headless=true \
  ${SPARSEPROF_JAVA_OPTS:--Xmx8g} -cp "$rt/app/sparseprof.jar:$rt/app/lib/*" dev.sparseprof.cli.Main "$@" \
  2> >(grep -v -e '^WARNING: Using incubator modules' >&2)
LAUNCH
chmod +x "$out/sparseprof"
bytes="$(du -sb "$out" | cut -f1)"
echo "gpu-jlink-runtime: $out = $((bytes / 1024 / 1024)) MiB ($bytes bytes; modules $modules)"
"$out/sparseprof" --version
if (( bytes >= 50 * 1000 * 1000 )); then echo "gpu-jlink-runtime: $bytes bytes is not under 50 MB" >&2; exit 2; fi

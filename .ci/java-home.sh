# Sourced by ./sparseprof and .ci/run: points JAVA_HOME at a Java 25 (or newer) JDK.
# A JDK's release file names its version, so no java needs to run (that took 50-90 ms of each launch).
_sp_java_ok() {
  [[ -x "$1/bin/java" ]] || return 1
  local _sp_line
  if [[ -r "$1/release" ]]; then
    while IFS= read -r _sp_line; do
      [[ "$_sp_line" =~ ^JAVA_VERSION=\"([0-9]+) ]] && { (( BASH_REMATCH[1] >= 25 )); return; }
    done < "$1/release"
  fi
  "$1/bin/java" -version 2>&1 | grep -Eq 'version "(2[5-9]|[3-9][0-9])'
}
if [[ -z "${JAVA_HOME:-}" ]] || ! _sp_java_ok "$JAVA_HOME"; then
  for _sp_candidate in /usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/temurin-25* /usr/lib/jvm/*25* /usr/lib/jvm/*; do
    if _sp_java_ok "$_sp_candidate"; then export JAVA_HOME="$_sp_candidate"; break; fi
  done
fi
if [[ -z "${JAVA_HOME:-}" ]] || ! _sp_java_ok "$JAVA_HOME"; then
  echo "sparseprof: needs a Java 25 JDK (none found under /usr/lib/jvm; set JAVA_HOME)" >&2
  exit 1
fi
export PATH="$JAVA_HOME/bin:$PATH"
# Maven's own guava calls sun.misc.Unsafe, which Java 25 warns about on every build; allow it quietly.
case " ${MAVEN_OPTS:-} " in *sun-misc-unsafe-memory-access*) ;; *) export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow" ;; esac

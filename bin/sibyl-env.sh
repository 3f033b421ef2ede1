# Sourced by the scripts in bin/: finds the install directory and builds what is missing.
# Not meant to be run on its own.

SIBYL_HOME=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export SIBYL_HOME

# Builds the modules once, on first use, so a fresh checkout needs no separate build step.
# $1: a file the build produces that the caller needs.
sibyl_build_if_missing() {
  local artifact=$1
  if [ ! -e "$artifact" ]; then
    echo "Building Sibyl (first run; mvn package)..." >&2
    if ! (cd "$SIBYL_HOME" && mvn -q -B package -DskipTests >&2); then
      echo "Build failed; see the Maven output above." >&2
      exit 2
    fi
  fi
}

sibyl_java() {
  if [ -n "${JAVA_HOME:-}" ]; then echo "$JAVA_HOME/bin/java"; else echo java; fi
}

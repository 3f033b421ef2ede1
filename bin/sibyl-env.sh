# Sourced by the scripts in bin/: finds the install directory, the jars, and builds what is missing.
# Not meant to be run on its own.

SIBYL_HOME=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export SIBYL_HOME

# The jars live in lib/ of a release archive (sibyl-VERSION.tar.gz, made by mvn package), or in the
# modules' target/ directories of a source checkout, where the first use builds them.
if [ -f "$SIBYL_HOME/lib/sibyl-server.jar" ]; then SIBYL_RELEASE=1; else SIBYL_RELEASE=0; fi

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

# Sets SIBYL_CP to the class path of the server's tools (the server, sstable2json, json2sstable), building
# a checkout first if needed.
sibyl_server_classpath() {
  if [ "$SIBYL_RELEASE" = 1 ]; then
    SIBYL_CP="$SIBYL_HOME/lib/*"
  else
    sibyl_build_if_missing "$SIBYL_HOME/server/target/sibyl-server.jar"
    SIBYL_CP="$SIBYL_HOME/server/target/sibyl-server.jar:$SIBYL_HOME/server/target/lib/*"
  fi
}

# Sets SIBYL_CP to the class path of the client's tools (cli, stress, nodetool, soak's load).
sibyl_client_classpath() {
  if [ "$SIBYL_RELEASE" = 1 ]; then
    SIBYL_CP="$SIBYL_HOME/lib/*"
  else
    sibyl_build_if_missing "$SIBYL_HOME/client/target/sibyl-client.jar"
    SIBYL_CP="$SIBYL_HOME/client/target/sibyl-client.jar:$SIBYL_HOME/client/target/lib/*"
  fi
}

sibyl_java() {
  if [ -n "${JAVA_HOME:-}" ]; then echo "$JAVA_HOME/bin/java"; else echo java; fi
}

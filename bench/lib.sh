# Shared by bench/run-e2e and bench/run-redis-compare: a throw-away server, stress runs and CPU accounting.
# Sourced, not run.

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SIBYL_HOME=$(cd "$BENCH_DIR/.." && pwd)
CLK_TCK=$(getconf CLK_TCK)
# Another build's bin/server or bin/stress can be measured instead of this one's, for before/after comparisons in
# one session: SERVER_HOME=/path/to/other/checkout (its jars built), likewise STRESS_HOME.
SERVER_HOME=${SERVER_HOME:-$SIBYL_HOME}
STRESS_HOME=${STRESS_HOME:-$SIBYL_HOME}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# CPU time (user + system, all threads) a live process has used, in clock ticks.
cpu_ticks() {
  awk '{ print $14 + $15 }' "/proc/$1/stat"
}

# $1: ticks, $2: operations -> microseconds of CPU per operation
us_per_op() {
  awk -v t="$1" -v n="$2" -v hz="$CLK_TCK" 'BEGIN { if (n > 0) printf "%.1f", t * 1e6 / hz / n; else print "-" }'
}

# Builds the server and client jars once.
build_if_missing() {
  if [ ! -e "$SIBYL_HOME/server/target/sibyl-server.jar" ] || [ ! -e "$SIBYL_HOME/client/target/sibyl-client.jar" ] \
      || [ "${REBUILD:-0}" = 1 ]; then
    echo "Building the server and the client (mvn package -pl server,client -am)..." >&2
    (cd "$SIBYL_HOME" && mvn -q -B -ntp package -DskipTests -pl server,client -am >&2)
  fi
}

# Starts bin/server in the foreground (as a background job) on a fresh data directory and configuration under
# $1, on a free Thrift port, without JMX. Sets SERVER_PID and SERVER_PORT. SERVER_JVM_OPTS goes to its JVM;
# COMMITLOG_SYNC=batch runs it with CommitLogSync batch (window 1 ms) instead of the shipped periodic.
# SERVER_CONF=cluster starts it from conf/cluster/ (cluster mode) instead of conf/; CLUSTER_CONTACT_POINT
# (host:port) then replaces that file's contact points, and CLUSTER_REQUEST_TIMEOUT_MS sets RequestTimeoutInMillis.
start_server() {
  local dir=$1
  mkdir -p "$dir/conf" "$dir/data" "$dir/commitlog" "$dir/saved_caches"
  cp -r "$SERVER_HOME"/conf/* "$dir/conf/" # conf/cluster/ too
  if [ "${SERVER_CONF:-}" = cluster ]; then
    cp "$SERVER_HOME"/conf/cluster/* "$dir/conf/"
    if [ -n "${CLUSTER_CONTACT_POINT:-}" ]; then
      # the shipped file names two nodes; keep the first, pointed at the given address
      sed -i -e "0,/<ContactPoint>[^<]*<\/ContactPoint>/s||<ContactPoint>$CLUSTER_CONTACT_POINT</ContactPoint>|" \
        -e "/<ContactPoint>127\.0\.0\.2[^<]*<\/ContactPoint>/d" "$dir/conf/storage-conf.xml"
    fi
    if [ -n "${CLUSTER_REQUEST_TIMEOUT_MS:-}" ]; then
      sed -i -e "s|</LocalDatacenter>|</LocalDatacenter><RequestTimeoutInMillis>$CLUSTER_REQUEST_TIMEOUT_MS</RequestTimeoutInMillis>|" \
        "$dir/conf/storage-conf.xml"
    fi
  fi
  SERVER_PORT=$(free_port)
  local storage_port
  storage_port=$(free_port)
  sed -i \
    -e "s|<ThriftPort>[^<]*</ThriftPort>|<ThriftPort>$SERVER_PORT</ThriftPort>|" \
    -e "s|<StoragePort>[^<]*</StoragePort>|<StoragePort>$storage_port</StoragePort>|" \
    -e "s|<JmxPort>[^<]*</JmxPort>|<JmxPort>0</JmxPort>|" \
    -e "s|<CommitLogDirectory>[^<]*</CommitLogDirectory>|<CommitLogDirectory>$dir/commitlog</CommitLogDirectory>|" \
    -e "s|<DataFileDirectory>[^<]*</DataFileDirectory>|<DataFileDirectory>$dir/data</DataFileDirectory>|" \
    -e "s|<SavedCachesDirectory>[^<]*</SavedCachesDirectory>|<SavedCachesDirectory>$dir/saved_caches</SavedCachesDirectory>|" \
    "$dir/conf/storage-conf.xml"
  if [ "${COMMITLOG_SYNC:-periodic}" = batch ]; then
    # A write acknowledged only after the fsync that covers it; writes within 1 ms share the fsync.
    sed -i -e "s|<CommitLogSync>periodic</CommitLogSync>|<CommitLogSync>batch</CommitLogSync>|" \
      -e "s|<CommitLogSyncPeriodInMS>[0-9]*</CommitLogSyncPeriodInMS>|<CommitLogSyncBatchWindowInMS>1</CommitLogSyncBatchWindowInMS>|" \
      "$dir/conf/storage-conf.xml"
  fi
  JVM_OPTS="${SERVER_JVM_OPTS:-}" "$SERVER_HOME/bin/server" -f --conf "$dir/conf" > "$dir/server.out" 2>&1 &
  SERVER_PID=$!
  for _ in $(seq 1 600); do
    if grep -q "Sibyl is serving" "$dir/server.out"; then
      return 0
    fi
    if ! kill -0 "$SERVER_PID" 2>/dev/null; then
      echo "the server did not start:" >&2
      cat "$dir/server.out" >&2
      return 1
    fi
    sleep 0.1
  done
  echo "the server did not report serving within 60 s; see $dir/server.out" >&2
  return 1
}

# SSTables of the server whose directory is $1 (written ones, not those being written).
sstables() {
  find "$1/data" -name '*-Data.db' ! -name 'tmp-*' | wc -l
}

# Waits until the server whose directory is $1 has no flush or compaction under way: no SSTable being written (tmp-
# files) and the SSTable count unchanged for 15 s, at most $2 seconds (default 1800). A compaction of gigabytes
# leaves the count alone for minutes while it runs; a run measured meanwhile shares the CPU with it and counts its
# CPU time as its own.
wait_for_compactions() {
  local dir=$1 limit=${2:-1800} last=-1 same=0 now
  for _ in $(seq 1 "$limit"); do
    now=$(sstables "$dir")
    if [ "$now" = "$last" ] && [ "$(find "$dir/data" -name 'tmp-*' | wc -l)" = 0 ]; then
      same=$((same + 1))
    else
      same=0 last=$now
    fi
    [ "$same" -ge 15 ] && return 0
    sleep 1
  done
}

stop_server() {
  if [ -n "${SERVER_PID:-}" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill "$SERVER_PID"
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  SERVER_PID=""
}

# Runs bin/stress against the server with the given options and measures it. Sets RUN_OPS, RUN_OPS_S, RUN_P50,
# RUN_P99 (ms), RUN_ERRORS, RUN_SERVER_US (server CPU µs per op) and RUN_STRESS_US (bin/stress's CPU µs per op,
# JVM start included). The stress output goes to $RUN_LOG.
run_stress() {
  local before after t0 stress_cpu
  before=$(cpu_ticks "$SERVER_PID")
  local timing
  timing=$(mktemp)
  /usr/bin/time -f "%U %S" -o "$timing" "$STRESS_HOME/bin/stress" -p "$SERVER_PORT" "$@" > "$RUN_LOG" 2>&1 || true
  after=$(cpu_ticks "$SERVER_PID")
  local done_line lat_line
  done_line=$(grep '^Done:' "$RUN_LOG" | tail -n 1)
  lat_line=$(grep '^Latency' "$RUN_LOG" | tail -n 1)
  if [ -z "$done_line" ]; then
    echo "bin/stress $* failed:" >&2
    tail -n 20 "$RUN_LOG" >&2
    RUN_OPS=0 RUN_OPS_S=0 RUN_P50=- RUN_P99=- RUN_ERRORS=- RUN_SERVER_US=- RUN_STRESS_US=-
    return 1
  fi
  RUN_OPS=$(sed -E 's/^Done: ([0-9]+) .*/\1/' <<<"$done_line")
  RUN_OPS_S=$(sed -E 's/.*\(([0-9]+) ops\/s\).*/\1/' <<<"$done_line")
  RUN_ERRORS=$(sed -E 's/.*, ([0-9]+) errors.*/\1/' <<<"$done_line")
  RUN_P50=$(sed -E 's/.*p50 ([0-9.]+),.*/\1/' <<<"$lat_line")
  RUN_P99=$(sed -E 's/.*p99 ([0-9.]+),.*/\1/' <<<"$lat_line")
  RUN_SERVER_US=$(us_per_op "$((after - before))" "$RUN_OPS")
  stress_cpu=$(awk '{ printf "%d", ($1 + $2) * 100 }' "$timing")
  RUN_STRESS_US=$(us_per_op "$((stress_cpu * CLK_TCK / 100))" "$RUN_OPS")
  rm -f "$timing"
}

machine_notes() {
  echo "$(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')), load average $(cut -d' ' -f1-3 /proc/loadavg), $(java -version 2>&1 | head -n 1)"
}

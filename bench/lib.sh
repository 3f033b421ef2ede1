# Shared by the bench/run-* scripts: a throw-away server (bin/server, or a real Cassandra 3.11), stress runs and CPU
# accounting.
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

# CPU time (user + system, all threads) a live process has used, in clock ticks, with that of the children it has
# waited for: Redis rewrites its append-only file in a forked child, and that work is its compaction.
cpu_ticks() {
  awk '{ print $14 + $15 + $16 + $17 }' "/proc/$1/stat"
}

# CPU time (user + system) of a live JVM's JIT compiler threads ("C1 CompilerThread0", "C2 CompilerThread1", ...), in
# clock ticks. A run shortly after a warm-up still compiles; this tells that one-off cost from the per-call cost.
jit_ticks() {
  local total=0 task comm stat rest
  for task in /proc/"$1"/task/*; do
    comm=$(cat "$task/comm" 2>/dev/null) || continue
    case "$comm" in C[12]\ CompilerThre*) ;; *) continue ;; esac
    stat=$(cat "$task/stat" 2>/dev/null) || continue
    rest=${stat##*) } # the fields after the command name, which may hold spaces
    # shellcheck disable=SC2086
    set -- $rest
    total=$((total + ${12} + ${13}))
  done
  echo "$total"
}

# Context switches a live process's threads have taken so far that they did not ask for (preemptions; a thread that
# blocks in a system call switches voluntarily), summed over the threads alive now.
involuntary_switches() {
  cat /proc/"$1"/task/*/status 2>/dev/null | awk '/^nonvoluntary_ctxt_switches:/ { n += $2 } END { print n + 0 }'
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
# NETWORK_THREADS sets ThriftNetworkThreads (the shipped 0 is one per processor).
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
  if [ "${SERVER_CONF:-}" != cluster ]; then
    # bin/stress -o add's counters (3.11's stress calls them Counter1), as bench/cassandra311/CreateKeyspace.java
    # makes them there
    sed -i -e 's|<Keyspace Name="Keyspace1">|&<ColumnFamily Name="Counter1" DefaultValidationClass="CounterColumnType"/>|' \
      "$dir/conf/storage-conf.xml"
  fi
  if [ -n "${NETWORK_THREADS:-}" ]; then
    sed -i -e "s|<ThriftNetworkThreads>[^<]*</ThriftNetworkThreads>|<ThriftNetworkThreads>$NETWORK_THREADS</ThriftNetworkThreads>|" \
      "$dir/conf/storage-conf.xml"
  fi
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
  wait_until_settled "$1" "${2:-1800}" "! -name tmp-*" "-name tmp-*"
}

# The loop of wait_for_compactions, wait_for_compactions311 and wait_for_compactions06: waits, at most $2 seconds, until the count of
# *-Data.db files under $1/data (with the find tests $3 as well) has stayed the same for 15 s with no file matching
# the find tests $4 (SSTables or transactions under way).
wait_until_settled() {
  local dir=$1 limit=$2 last=-1 same=0 now
  for _ in $(seq 1 "$limit"); do
    # shellcheck disable=SC2086 # $3 and $4 are find tests, one word each
    now=$(set -f; find "$dir/data" -name '*-Data.db' $3 | wc -l)
    # shellcheck disable=SC2086
    if [ "$now" = "$last" ] && [ "$(set -f; find "$dir/data" $4 | wc -l)" = 0 ]; then
      same=$((same + 1))
    else
      same=0 last=$now
    fi
    [ "$same" -ge 15 ] && return 0
    sleep 1
  done
}

# Waits, at most $1 seconds, until the processes $2... together use under a tenth of a core in each of 3
# consecutive seconds: flushes, compactions and JIT compilations left by a warm-up or an earlier workload done, so
# that they are not counted in the next measured run (the first run after a warm-up of run-cluster-compare ran at
# half the rate of the later ones on the path measured first). Prints how long it waited on stderr.
wait_until_idle() {
  local limit=$1 quiet=0 waited=0 before after pid
  shift
  while [ "$waited" -lt "$limit" ]; do
    before=0 after=0
    for pid in "$@"; do before=$((before + $(cpu_ticks "$pid"))); done
    sleep 1
    for pid in "$@"; do after=$((after + $(cpu_ticks "$pid"))); done
    waited=$((waited + 1))
    if [ $(((after - before) * 10)) -lt "$CLK_TCK" ]; then quiet=$((quiet + 1)); else quiet=0; fi
    if [ "$quiet" -ge 3 ]; then
      echo "# idle after ${waited} s" >&2
      return 0
    fi
  done
  echo "# still busy after ${limit} s; measuring anyway" >&2
}

stop_server() {
  if [ -n "${SERVER_PID:-}" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill "$SERVER_PID"
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  SERVER_PID=""
}

# Installs redis-server and redis-tools with apt-get unless redis-server, redis-cli and any other tool named in the
# arguments (redis-benchmark) are here.
need_redis() {
  local tool missing=""
  for tool in redis-server redis-cli "$@"; do command -v "$tool" > /dev/null || missing=1; done
  [ -z "$missing" ] && return 0
  echo "Installing redis-server and redis-tools..." >&2
  local sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -q >&2
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q redis-server redis-tools >&2
}

# Whether REDIS_APPENDFSYNC is unset or a mode start_redis knows; says which it takes when not. The scripts ask before
# their first run, not when Redis starts after an hour of other servers' runs.
check_redis_appendfsync() {
  case "${REDIS_APPENDFSYNC:-}" in
    "" | everysec | always) return 0 ;;
    *) echo "REDIS_APPENDFSYNC (-a) takes everysec or always, not '$REDIS_APPENDFSYNC'" >&2; return 1 ;;
  esac
}

# Starts redis-server as a background job on a free port of 127.0.0.1, its files and log in the directory $1, and
# waits until it answers. Without REDIS_APPENDFSYNC it keeps nothing on disk. REDIS_APPENDFSYNC=everysec makes it
# append every write to its append-only file and sync that once a second, the counterpart of Sibyl's shipped periodic
# commit log (every write appended, synced every 10 s); =always syncs before each reply, like batch mode. Sets
# REDIS_PID and REDIS_PORT; stop_redis ends it.
start_redis() {
  check_redis_appendfsync || return 2
  mkdir -p "$1"
  REDIS_PORT=$(free_port)
  local persistence=(--appendonly no)
  [ -z "${REDIS_APPENDFSYNC:-}" ] || persistence=(--appendonly yes --appendfsync "$REDIS_APPENDFSYNC")
  redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save "" "${persistence[@]}" --dir "$1" \
    --daemonize no --logfile "$1/redis.log" &
  REDIS_PID=$!
  for _ in $(seq 1 100); do
    redis-cli -p "$REDIS_PORT" ping > /dev/null 2>&1 && return 0
    sleep 0.1
  done
  echo "redis-server did not answer on port $REDIS_PORT within 10 s; its log: $1/redis.log" >&2
  return 1
}

stop_redis() {
  if [ -n "${REDIS_PID:-}" ] && kill -0 "$REDIS_PID" 2>/dev/null; then
    kill "$REDIS_PID"
    wait "$REDIS_PID" 2>/dev/null || true
  fi
  REDIS_PID=""
}

# Runs bin/stress against the server with the given options and measures it. Sets RUN_OPS, RUN_OPS_S, RUN_P50,
# RUN_P99 (ms), RUN_ERRORS, RUN_SERVER_US (server CPU µs per op, all threads), RUN_JIT_US (the part of it its JIT
# compiler threads spent), RUN_SWITCHES (the server's involuntary context switches per op: how often the threads it
# woke, bin/stress's among them, took a core from it) and RUN_STRESS_US (bin/stress's CPU µs per op, JVM start
# included). The stress output goes to $RUN_LOG.
run_stress() {
  run_stress_at "$SERVER_PID" "$SERVER_PORT" "$@"
}

# run_stress against another server: the process $1, whose CPU time is counted, listening on port $2 (a
# redis-server, say, with --redis among the options that follow).
run_stress_at() {
  local pid=$1 port=$2 before after jit_before jit_after switches_before switches_after stress_cpu timing
  shift 2
  jit_before=$(jit_ticks "$pid")
  switches_before=$(involuntary_switches "$pid")
  before=$(cpu_ticks "$pid")
  timing=$(mktemp)
  /usr/bin/time -f "%U %S" -o "$timing" "$STRESS_HOME/bin/stress" -p "$port" "$@" > "$RUN_LOG" 2>&1 || true
  after=$(cpu_ticks "$pid")
  switches_after=$(involuntary_switches "$pid")
  jit_after=$(jit_ticks "$pid")
  local done_line lat_line
  done_line=$(grep '^Done:' "$RUN_LOG" | tail -n 1)
  lat_line=$(grep '^Latency' "$RUN_LOG" | tail -n 1)
  if [ -z "$done_line" ]; then
    echo "bin/stress $* failed:" >&2
    tail -n 20 "$RUN_LOG" >&2
    RUN_OPS=0 RUN_OPS_S=0 RUN_P50=- RUN_P99=- RUN_ERRORS=- RUN_SERVER_US=- RUN_JIT_US=- RUN_STRESS_US=- RUN_SWITCHES=-
    rm -f "$timing"
    return 1
  fi
  RUN_OPS=$(sed -E 's/^Done: ([0-9]+) .*/\1/' <<<"$done_line")
  RUN_OPS_S=$(sed -E 's/.*\(([0-9]+) ops\/s\).*/\1/' <<<"$done_line")
  RUN_ERRORS=$(sed -E 's/.*, ([0-9]+) errors.*/\1/' <<<"$done_line")
  RUN_P50=$(sed -E 's/.*p50 ([0-9.]+),.*/\1/' <<<"$lat_line")
  RUN_P99=$(sed -E 's/.*p99 ([0-9.]+),.*/\1/' <<<"$lat_line")
  RUN_SERVER_US=$(us_per_op "$((after - before))" "$RUN_OPS")
  RUN_JIT_US=$(us_per_op "$((jit_after - jit_before))" "$RUN_OPS")
  RUN_SWITCHES=$(awk -v s="$((switches_after - switches_before))" -v n="$RUN_OPS" \
    'BEGIN { if (n > 0) printf "%.2f", s / n; else print "-" }')
  # the last line: GNU time writes "Command exited with non-zero status N" before the times when bin/stress fails
  stress_cpu=$(tail -n 1 "$timing" | awk '{ printf "%d", ($1 + $2) * 100 }')
  RUN_STRESS_US=$(us_per_op "$((stress_cpu * CLK_TCK / 100))" "$RUN_OPS")
  rm -f "$timing"
}

# bin/stress's options for a workload of bench/run-e2e, run-ab and run-rounds (one table, so the names mean the same
# in each). On an unknown name: a line on stderr naming the script, status 2.
#   insert1    batch_mutate of a row of 1 column         insertcol  Thrift's plain insert of 1 column (C0)
#   insert10   batch_mutate of a row of 10 columns       read1      get_slice of the first column of a row
#   insert100  batch_mutate of a row of 100 columns      getcol     Thrift's plain get of 1 column (C0)
#   read10     get_slice of the first 10 columns         range100   get_range_slices of 100 rows of 10 columns
#   mixed      50% read10, 50% insert10
# insertcol writes the column and value insert1 writes, so getcol and read1 read what either wrote.
# A name ending in @0.7 (insert1@0.7, getcol@0.7, ...) is the same workload in the 0.7-3.11 dialect (bin/stress
# --dialect 0.7 --framed: set_keyspace, binary keys), which Sibyl serves on the same port: for comparing the cost of
# one call in both dialects (docs/thrift-api-0.7.md).
stress_workload() {
  if [[ "$1" == *@0.7 ]]; then
    local base
    base=$(stress_workload "${1%@0.7}") || return $?
    echo "$base --dialect 0.7 --framed"
    return 0
  fi
  case "$1" in
    insert1) echo "-o insert -c 1" ;;
    insert10) echo "-o insert -c 10" ;;
    insert100) echo "-o insert -c 100" ;;
    insertcol) echo "-o insert_column" ;;
    read1) echo "-o read -c 1" ;;
    read10) echo "-o read -c 10" ;;
    getcol) echo "-o get_column" ;;
    range100) echo "-o range_slice -c 10 --range-count 100" ;;
    mixed) echo "-o mixed -c 10 --read-ratio 0.5" ;;
    *) echo "bench/$(basename "$0"): unknown workload '$1'; use insert1, insert10, insert100, insertcol, read1," \
         "read10, getcol, range100 or mixed" >&2
       return 2 ;;
  esac
}

# Exits 2 unless every name in the list $1 is a workload of stress_workload.
check_workloads() {
  local w
  for w in $1; do stress_workload "$w" > /dev/null || exit 2; done
}

machine_notes() {
  echo "$(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')), load average $(cut -d' ' -f1-3 /proc/loadavg), $(java -version 2>&1 | head -n 1)"
}

# ---- A real Apache Cassandra 3.11 (the last Thrift server), for bench/run-311-compare ----
# Its jars come from Maven Central through bench/cassandra311/pom.xml (about 50 jars, fetched on first use).

C311_POM="$BENCH_DIR/cassandra311/pom.xml"
C311_CLASSPATH_FILE="$BENCH_DIR/cassandra311/target/cassandra.classpath"

# Prints the class path of Cassandra 3.11 (cassandra-all and cassandra-thrift with their dependencies).
cassandra311_classpath() {
  if [ ! -s "$C311_CLASSPATH_FILE" ]; then
    echo "Resolving Apache Cassandra 3.11 from Maven Central (first run)..." >&2
    mvn -q -B -ntp -f "$C311_POM" generate-resources >&2 || { echo "could not resolve Cassandra 3.11's jars" >&2; return 1; }
  fi
  cat "$C311_CLASSPATH_FILE"
}

# The JVM options Java 17 needs for Cassandra, shared with the client's differential test.
mapfile -t C311_JVM17_OPTS < <(grep -v '^#' "$BENCH_DIR/cassandra311/jvm17.options")

# Starts Cassandra 3.11 as a background job on a fresh directory $1 (data, commit log, cassandra.yaml, logs), on
# free ports, with its Thrift server as it shipped (rpc_server_type: sync, a thread per connection), a periodic
# commit log (10 s, as Sibyl's shipped conf), RandomPartitioner (as Sibyl's) and a 1 GB heap (C311_HEAP), then
# creates Keyspace1 (replication factor 1) with Standard1 (BytesType) over Thrift. Sets SERVER_PID and SERVER_PORT
# (its Thrift port), so that run_stress and stop_server serve for it as for bin/server. C311_JVM_OPTS goes to its
# JVM. Waits at most C311_WAIT seconds (default 300) for the Thrift port.
start_cassandra311() {
  local dir=$1 cp jamm storage_port ssl_port native_port jmx_port
  cp=$(cassandra311_classpath) || return 1
  jamm=$(tr ':' '\n' <<<"$cp" | grep '/jamm-[^/]*\.jar$' | head -n 1)
  [ -n "$jamm" ] || { echo "no jamm jar on Cassandra 3.11's class path" >&2; return 1; }
  mkdir -p "$dir/conf" "$dir/logs"
  SERVER_PORT=$(free_port)
  storage_port=$(free_port)
  ssl_port=$(free_port)
  native_port=$(free_port)
  jmx_port=$(free_port)
  sed -e "s|@DIR@|$dir|g" -e "s|@PARTITIONER@|org.apache.cassandra.dht.RandomPartitioner|" \
    -e "s|@STORAGE_PORT@|$storage_port|" -e "s|@SSL_STORAGE_PORT@|$ssl_port|" \
    -e "s|@NATIVE_TRANSPORT_PORT@|$native_port|" -e "s|@RPC_PORT@|$SERVER_PORT|" \
    "$BENCH_DIR/cassandra311/cassandra.yaml.in" > "$dir/conf/cassandra.yaml"
  sed -e "s|@DIR@|$dir|g" "$BENCH_DIR/cassandra311/logback.xml.in" > "$dir/conf/logback.xml"
  local heap=${C311_HEAP:-1g}
  # shellcheck disable=SC2086
  java -Xms"$heap" -Xmx"$heap" -XX:+UseG1GC -XX:+ExitOnOutOfMemoryError -Xss512k "-javaagent:$jamm" \
    "${C311_JVM17_OPTS[@]}" -Djava.net.preferIPv4Stack=true \
    "-Dcassandra.config=file://$dir/conf/cassandra.yaml" -Dcassandra-foreground=yes \
    "-Dcassandra.jmx.local.port=$jmx_port" "-Dlogback.configurationFile=$dir/conf/logback.xml" \
    "-Dcassandra.logdir=$dir/logs" "-Dcassandra.storagedir=$dir" -Dcassandra.skip_wait_for_gossip_to_settle=0 \
    ${C311_JVM_OPTS:-} -cp "$dir/conf:$cp" org.apache.cassandra.service.CassandraDaemon \
    > "$dir/logs/console.log" 2>&1 < /dev/null &
  SERVER_PID=$!
  local waited=0 limit=$((${C311_WAIT:-300} * 10))
  until (exec 3<>"/dev/tcp/127.0.0.1/$SERVER_PORT") 2>/dev/null; do
    if ! kill -0 "$SERVER_PID" 2>/dev/null; then
      echo "Cassandra 3.11 exited before serving Thrift; the last lines of its logs:" >&2
      tail -n 20 "$dir/logs/console.log" "$dir/logs/system.log" >&2 2>/dev/null || true
      return 1
    fi
    if [ "$waited" -ge "$limit" ]; then
      echo "Cassandra 3.11 did not open its Thrift port within ${C311_WAIT:-300} s; see $dir/logs/system.log" >&2
      return 1
    fi
    sleep 0.1
    waited=$((waited + 1))
  done
  echo "# Cassandra 3.11 serves Thrift on port $SERVER_PORT after $((waited / 10)) s (pid $SERVER_PID, $dir)" >&2
  java -cp "$cp" "$BENCH_DIR/cassandra311/CreateKeyspace.java" 127.0.0.1 "$SERVER_PORT" Keyspace1 Standard1 >&2
}

# Like wait_for_compactions, for Cassandra 3.11's directory $1: 3.11 writes SSTables under their final names and
# lists the unfinished ones in a transaction log (*_txn_*.log) until a flush or compaction completes.
wait_for_compactions311() {
  wait_until_settled "$1" "${2:-1800}" "" "-name *_txn_*.log"
}

# ---- A real Apache Cassandra 0.6.5 (the release whose Thrift API Sibyl serves), for bench/run-311-compare -P c06 ----
# Built from its public source and run on Java 17 by the developers' peer-c06.sh, which lives outside this repository
# (C06_PEER, default ../shared/tools/peer-c06.sh beside the checkout) and reads the source from a git mirror of
# stuhood/cassandra-old (C06_MIRROR, peer-c06.sh's default when unset). Nothing of 0.6 is kept in this repository.

C06_PEER=${C06_PEER:-$SIBYL_HOME/../shared/tools/peer-c06.sh}
C06_BASE=${C06_BASE:-/tmp/peers/c06}

# Builds 0.6.5 into $C06_BASE unless it is built there (about 25 s on a quiet machine), then prints its version.
cassandra06_build() {
  [ -x "$C06_PEER" ] || { echo "peer-c06.sh not found at $C06_PEER (set C06_PEER)" >&2; return 1; }
  if [ ! -f "$C06_BASE/BUILT" ]; then
    echo "Building Apache Cassandra 0.6.5 from source into $C06_BASE (first run, about 25 s)..." >&2
    BASE=$C06_BASE "$C06_PEER" build >&2 || { echo "could not build Cassandra 0.6.5" >&2; return 1; }
  fi
  sed -n 's/^version=//p' "$C06_BASE/BUILT"
}

# Starts Cassandra 0.6.5 (built by cassandra06_build) with its node directory at $1, which must not hold a node yet:
# conf/, data/ (data and commit log) and log/ there. peer-c06.sh writes 0.6's own sample storage-conf.xml with the
# ports and paths replaced: Keyspace1 with Standard1 (BytesType), RandomPartitioner, replication factor 1, periodic
# commit log every 10 s. Free Thrift, storage and JMX ports; the framed transport, as bin/stress speaks to the other
# servers (0.6 shipped unframed; it serves one or the other); a 1 GB heap (C06_HEAP) and G1 (0.6's CMS flags are
# gone from Java 17). C06_JVM_OPTS goes to its JVM; it may take C06_WAIT seconds (default 300) to open its port.
# Sets SERVER_PID and SERVER_PORT, as start_server does; stop it with stop_cassandra06.
start_cassandra06() {
  local dir=$1 storage_port jmx_port
  SERVER_PORT=$(free_port)
  storage_port=$(free_port)
  jmx_port=$(free_port)
  # peer-c06.sh keeps a node in $BASE/node-PORT: that name points at $1 while the node runs.
  C06_NODE_LINK=$C06_BASE/node-$SERVER_PORT
  if [ -e "$C06_NODE_LINK" ] || [ -L "$C06_NODE_LINK" ]; then
    echo "$C06_NODE_LINK exists already; not starting 0.6.5 over it" >&2
    C06_NODE_LINK=""
    return 1
  fi
  mkdir -p "$dir"
  ln -s "$dir" "$C06_NODE_LINK"
  SERVER_PID=$(BASE=$C06_BASE FRESH=1 FRAMED=1 COMMITLOG_SYNC=periodic HEAP=${C06_HEAP:-1G} STORAGE_PORT=$storage_port \
    JMX_PORT=$jmx_port JVM_EXTRA=${C06_JVM_OPTS:-} START_TIMEOUT=${C06_WAIT:-300} "$C06_PEER" start "$SERVER_PORT") || {
    echo "Cassandra 0.6.5 did not start; its log: $dir/log/" >&2
    return 1
  }
  echo "# Cassandra 0.6.5 serves Thrift on port $SERVER_PORT (pid $SERVER_PID, $dir)" >&2
}

# Stops the node start_cassandra06 started, without a drain (its data is thrown away), and forgets it. Does nothing
# when none runs.
stop_cassandra06() {
  [ -n "${C06_NODE_LINK:-}" ] || return 0
  BASE=$C06_BASE DRAIN=0 "$C06_PEER" stop "${C06_NODE_LINK##*-}" > /dev/null || true
  rm -f "$C06_NODE_LINK"
  C06_NODE_LINK="" SERVER_PID=""
}

# Like wait_for_compactions, for 0.6.5's node directory $1: 0.6 writes a flush's or a compaction's SSTable under a
# -tmp- name and renames it when complete. The SSTables a compaction replaced keep their files, marked by a
# CF-N-Compacted file, until a garbage collection deletes them; they count until then.
wait_for_compactions06() {
  wait_until_settled "$1" "${2:-1800}" "! -name *-tmp-*" "-name *-tmp-*"
}

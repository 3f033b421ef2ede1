#!/bin/bash
# Makes the Cassandra 0.6 takeover fixtures in this directory from a real Apache Cassandra 0.6.5 node (issue #31).
# Run by hand, never in CI (CI only reads the committed fixture files). See README.md for what each fixture holds.
#
# usage: make-fixtures.sh [FIXTURE...]     default: random-killed opp-drained copp-stopped
#
# Needs: Java 17 (java + javac on PATH), and 0.6.5 built by the shared tool peer-c06.sh:
#          C06_MIRROR=<git dir of the stuhood/cassandra-old mirror> ../shared/tools/peer-c06.sh build
#        (BASE=/tmp/peers/c06 by default; this script only reads that build and never starts a node in it).
# env:   PEER       path of peer-c06.sh (default: <repository>/../shared/tools/peer-c06.sh)
#        C06_BASE   the BASE where peer-c06.sh built 0.6 (default /tmp/peers/c06)
#        WORK       scratch directory for the nodes (default /tmp/c06-fixtures; wiped per fixture)
#        VERIFY     1 (default) = afterwards start 0.6 again on a copy of each fixture and check that it serves
#                   exactly the expected answers; 0 = skip
#
# Per fixture: a private peer-c06.sh BASE under $WORK whose conf template is 0.6's sample storage-conf.xml with
# this fixture's keyspaces, partitioner, GCGraceSeconds (and commit log segment size), because `peer-c06.sh start`
# rewrites the node's conf/ from the template at every start. The node starts with FRESH=1 COMMITLOG_SYNC=batch
# (every acknowledged write is fsynced), MakeFixtures.java drives it through Thrift (0.6's own generated client
# classes from the build) and JMX, writes expected/, then the node is stopped as the fixture's name says and its
# data/data, data/commitlog and conf/storage-conf.xml are copied here. The node ports: Thrift 9281..9283 (and
# 9284..9286 for the verification), storage and JMX ports derived by peer-c06.sh.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../../../.." && pwd)
PEER=${PEER:-$ROOT/../shared/tools/peer-c06.sh}
C06_BASE=${C06_BASE:-/tmp/peers/c06}
WORK=${WORK:-/tmp/c06-fixtures}
VERIFY=${VERIFY:-1}
CP="$C06_BASE/classes:$C06_BASE/src/lib/*"

die() { echo "make-fixtures: $*" >&2; exit 1; }
alive() { [ -r "/proc/$1/status" ] && ! grep -q '^State:.*Z' "/proc/$1/status"; }
[ -x "$PEER" ] || die "peer-c06.sh not found at $PEER (set PEER)"
[ -f "$C06_BASE/BUILT" ] || die "0.6 is not built in $C06_BASE (run peer-c06.sh build, or set C06_BASE)"
grep -q '^version=0.6.5$' "$C06_BASE/BUILT" || die "$C06_BASE does not hold a 0.6.5 build"

# fixture -> thrift port, partitioner, GCGraceSeconds, CommitLogRotationThresholdInMB, ColumnIndexSizeInKB
port_of()      { case $1 in random-killed) echo 9281;; opp-drained) echo 9282;; copp-stopped) echo 9283;; *) die "unknown fixture $1";; esac; }
partitioner()  { case $1 in random-killed) echo RandomPartitioner;; opp-drained) echo OrderPreservingPartitioner;; copp-stopped) echo CollatingOrderPreservingPartitioner;; esac; }
gcgrace()      { echo 864000000; }
rotation()     { case $1 in random-killed) echo 1;; *) echo 128;; esac; }
colindex()     { case $1 in random-killed) echo 4;; *) echo 64;; esac; }

# a private peer-c06.sh BASE: the shared build (classes, lib) plus our own conf template in src/conf
make_base() {  # DIR TEMPLATE_CONF
  local dir=$1 conf=$2
  rm -rf "$dir"; mkdir -p "$dir/src/conf"
  cp "$C06_BASE/BUILT" "$dir/BUILT"
  ln -s "$C06_BASE/classes" "$dir/classes"
  ln -s "$C06_BASE/src/lib" "$dir/src/lib"
  cp "$C06_BASE/src/conf/log4j.properties" "$C06_BASE/src/conf/access.properties" "$C06_BASE/src/conf/passwd.properties" "$dir/src/conf/"
  cp "$conf" "$dir/src/conf/storage-conf.xml"
}

# 0.6's sample storage-conf.xml with this fixture's keyspaces and settings
template_conf() {  # FIXTURE OUT
  local fx=$1 out=$2 ks; ks=$(mktemp)
  java -cp "$CP" "$HERE/MakeFixtures.java" keyspaces "$fx" > "$ks"
  awk -v ksfile="$ks" '
    /<Keyspaces>/ { while ((getline l < ksfile) > 0) print l; skip = 1; next }
    skip && /<\/Keyspaces>/ { skip = 0; next }
    !skip { print }' "$C06_BASE/src/conf/storage-conf.xml" \
  | sed -e "s#<Partitioner>[^<]*</Partitioner>#<Partitioner>org.apache.cassandra.dht.$(partitioner "$fx")</Partitioner>#" \
        -e "s#<GCGraceSeconds>[^<]*</GCGraceSeconds>#<GCGraceSeconds>$(gcgrace "$fx")</GCGraceSeconds>#" \
        -e "s#<CommitLogRotationThresholdInMB>[^<]*</CommitLogRotationThresholdInMB>#<CommitLogRotationThresholdInMB>$(rotation "$fx")</CommitLogRotationThresholdInMB>#" \
        -e "s#<ColumnIndexSizeInKB>[^<]*</ColumnIndexSizeInKB>#<ColumnIndexSizeInKB>$(colindex "$fx")</ColumnIndexSizeInKB>#" \
        > "$out"
  rm -f "$ks"
  grep -q "<InitialToken></InitialToken>" "$out" || die "InitialToken must stay empty"
}

make_one() {
  local fx=$1 port; port=$(port_of "$fx")
  local base=$WORK/$fx node=$WORK/$fx/node-$port dest=$HERE/$fx
  echo "=== $fx (Thrift $port)"
  mkdir -p "$WORK"
  template_conf "$fx" "$WORK/$fx.storage-conf.xml"
  BASE=$base "$PEER" status "$port" | grep -q running && die "a node of $base is running"
  make_base "$base" "$WORK/$fx.storage-conf.xml"
  local pid; pid=$(BASE=$base FRESH=1 COMMITLOG_SYNC=batch "$PEER" start "$port")
  rm -rf "$WORK/$fx.out"
  if ! BASE=$base NODE_DIR=$node PEER="$PEER" java -cp "$CP" "$HERE/MakeFixtures.java" make "$fx" "$port" "$WORK/$fx.out"; then
    BASE=$base DRAIN=0 "$PEER" stop "$port" || true
    die "$fx: the driver failed (node log: $node/log/system.log)"
  fi
  BASE=$base "$PEER" nodetool "$port" ring > "$WORK/$fx.out/ring.txt"
  case $fx in
    random-killed) kill -9 "$pid"; rm -f "$node/pid"; echo "killed $pid with SIGKILL" ;;  # a crash: no drain, no flush
    opp-drained)   BASE=$base "$PEER" stop "$port" ;;                                              # nodetool drain, then SIGTERM
    copp-stopped)  BASE=$base DRAIN=0 "$PEER" stop "$port" ;;                                      # SIGTERM only (0.6 has no shutdown hook)
  esac
  local i; for i in $(seq 1 100); do alive "$pid" || break; sleep 0.2; done
  alive "$pid" && die "$fx: node $pid still running"
  rm -rf "$dest"; mkdir -p "$dest"
  cp -a "$node/data/data" "$dest/data"
  cp -a "$node/data/commitlog" "$dest/commitlog"
  # Elements only: the sample file's comments are Cassandra's prose, which the project does not copy.
  perl -0pe 's/<!--.*?-->//gs; s/\n\s*\n/\n/g; s/\A\s+//' "$node/conf/storage-conf.xml" > "$dest/storage-conf.xml"
  cp -a "$WORK/$fx.out/expected" "$dest/expected"
  grep -qF "$(cat "$dest/expected/token.txt")" "$WORK/$fx.out/ring.txt" || die "$fx: nodetool ring does not show the token"
  show_commitlog "$dest"
  cp "$node/log/system.log" "$WORK/$fx.system.log"
  echo "--- $fx: $(du -sk "$dest" | cut -f1) KB; token $(cat "$dest/expected/token.txt")"
  (cd "$dest" && find data commitlog -type f | sort | xargs ls -ln | awk '{print "    " $5 "\t" $9}')
}

# expected/cfids.txt: the column family ids of this configuration as 0.6 numbered them (the ids the commit log
# header uses); expected/commitlog.txt: each segment as 0.6.5's own deserializer reads it (ShowCommitLog.java)
show_commitlog() {  # FIXTURE_DIR
  local dest=$1 t; t=$(mktemp -d)
  sed -e "s#<CommitLogDirectory>[^<]*#<CommitLogDirectory>$t/commitlog#" -e "s#<DataFileDirectory>[^<]*#<DataFileDirectory>$t/data#" \
      "$dest/storage-conf.xml" > "$t/storage-conf.xml"
  cp "$C06_BASE/src/conf/log4j.properties" "$t/"
  sed -i -e "s#^log4j.appender.R.File=.*#log4j.appender.R.File=$t/system.log#" -e "s#^log4j.rootLogger=.*#log4j.rootLogger=WARN,R#" "$t/log4j.properties"
  java -cp "$t:$CP" -Dstorage-config="$t" "$HERE/ShowCommitLog.java" ids > "$dest/expected/cfids.txt"
  : > "$dest/expected/commitlog.txt"
  local seg
  for seg in $(cd "$dest" && ls commitlog/CommitLog-*.log 2>/dev/null | sort -t- -k2 -n); do
    (cd "$dest" && java -cp "$t:$CP" -Dstorage-config="$t" "$HERE/ShowCommitLog.java" "$seg") >> "$dest/expected/commitlog.txt"
  done
  rm -rf "$t"
}

# start 0.6 again on a copy of the fixture and read it back: it must serve exactly expected/
verify_one() {
  local fx=$1 port; port=$(( $(port_of "$fx") + 3 ))
  local base=$WORK/verify-$fx node=$WORK/verify-$fx/node-$port src=$HERE/$fx
  echo "=== verify $fx (restart 0.6 on a copy, Thrift $port)"
  make_base "$base" "$src/storage-conf.xml"
  mkdir -p "$node/data"
  cp -a "$src/data" "$node/data/data"
  cp -a "$src/commitlog" "$node/data/commitlog"
  BASE=$base COMMITLOG_SYNC=batch "$PEER" start "$port" > /dev/null
  rm -rf "$WORK/verify-$fx.out"
  java -cp "$CP" "$HERE/MakeFixtures.java" readback "$fx" "$port" "$src/expected" "$WORK/verify-$fx.out" \
    || { BASE=$base "$PEER" stop "$port"; die "verify $fx: read back failed"; }
  BASE=$base "$PEER" stop "$port" > /dev/null
  grep -E "Replaying|Finished reading|Log replay|Completed flushing|Compacted" "$node/log/system.log" | sed 's/^/    0.6: /' || true
  if diff -r -x cfids.txt -x commitlog.txt "$src/expected" "$WORK/verify-$fx.out" > "$WORK/verify-$fx.diff"; then
    echo "--- verify $fx: 0.6 restarted on the fixture serves exactly expected/"
  else
    echo "--- verify $fx: DIFFERENT after a 0.6 restart (see $WORK/verify-$fx.diff):"; head -20 "$WORK/verify-$fx.diff"
    return 1
  fi
}

FIXTURES=("$@"); [ ${#FIXTURES[@]} -gt 0 ] || FIXTURES=(random-killed opp-drained copp-stopped)
for fx in "${FIXTURES[@]}"; do make_one "$fx"; done
rc=0
if [ "$VERIFY" = 1 ]; then for fx in "${FIXTURES[@]}"; do verify_one "$fx" || rc=1; done; fi
exit $rc

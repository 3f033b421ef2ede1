#!/bin/bash
# Made CommitLog-1796628932119.log beside this script: a commit log segment written by a real Apache Cassandra
# 0.6.5 (built from its public source by peer-c06.sh, see peer-c06.md beside it; run on Java 17) and left by
# kill -9, for RealCassandra06SegmentTest. The node ran the sample Keyspace1 plus three keyspaces added
# after it in storage-conf.xml (Twitter with 14 column families, so that 0.6's HashMaps resize; Blog; Zeta), in
# batch mode. Writes through 0.6's cassandra-cli, a flush of Twitter, more writes and deletions, then kill -9.
# Only the file 0.6 wrote is kept; the segment's name and timestamps carry the machine clock of the day.
# Run by hand, never in CI. Needs 0.6.5 built by peer-c06.sh (its `build`), as for ../../../c06/make-fixtures.sh.
# env:   PEER       path of peer-c06.sh (default: <repository>/../shared/tools/peer-c06.sh)
#        PEER_BASE  the BASE where peer-c06.sh built 0.6 (default /tmp/peers/c06)
#        MINE       a scratch BASE sharing that build, with a conf template of its own (default /tmp/c06mine)
#        PORT       the node's Thrift port (default 9292)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../../../../../.." && pwd)
PEER=${PEER:-$ROOT/../shared/tools/peer-c06.sh}
PORT=${PORT:-9292}
PEER_BASE=${PEER_BASE:-/tmp/peers/c06}
export BASE=${MINE:-/tmp/c06mine}
rm -rf "$BASE"; mkdir -p "$BASE/src"
for f in "$PEER_BASE"/src/*; do [ "$(basename "$f")" = conf ] || ln -s "$f" "$BASE/src/"; done
cp -r "$PEER_BASE/src/conf" "$BASE/src/conf"; ln -s "$PEER_BASE/classes" "$BASE/classes"; cp "$PEER_BASE/BUILT" "$BASE/"
python3 - "$BASE/src/conf/storage-conf.xml" <<'PY'
import sys
p = sys.argv[1]; s = open(p).read()
def ks(name, cfs):
    body = "".join("      %s\n" % c for c in cfs)
    return ('    <Keyspace Name="%s">\n%s      <ReplicaPlacementStrategy>org.apache.cassandra.locator.RackUnawareStrategy'
            '</ReplicaPlacementStrategy>\n      <ReplicationFactor>1</ReplicationFactor>\n      <EndPointSnitch>'
            'org.apache.cassandra.locator.EndPointSnitch</EndPointSnitch>\n    </Keyspace>\n') % (name, body)
twitter = ['<ColumnFamily Name="%s" CompareWith="UTF8Type"/>' % n for n in
           ["Users", "Tweets", "Timeline", "Followers", "Following", "Lists", "Hashtags", "Mentions", "Favorites",
            "Retweets", "Blocks", "Mutes", "Sessions", "Devices"]]
blog = ['<ColumnFamily Name="Posts" CompareWith="LongType"/>',
        '<ColumnFamily Name="Comments" ColumnType="Super" CompareWith="LongType" CompareSubcolumnsWith="AsciiType"/>']
zeta = ['<ColumnFamily Name="Events" CompareWith="LexicalUUIDType"/>']
s = s.replace("  </Keyspaces>", ks("Twitter", twitter) + ks("Blog", blog) + ks("Zeta", zeta) + "  </Keyspaces>")
open(p, "w").write(s)
PY
PID=$(FRESH=1 COMMITLOG_SYNC=batch "$PEER" start "$PORT")
{ for cf in Users Tweets Timeline Followers Devices Sessions; do echo "set Twitter.$cf['a']['c'] = 'v-$cf'"; done
  echo "set Keyspace1.Standard2['k']['x'] = 'y'"; echo "set Keyspace1.Super2['k']['s']['x'] = 'y'"; } | "$PEER" cli "$PORT"
"$PEER" nodetool "$PORT" flush Twitter; sleep 2
{ for cf in Users Mutes Hashtags; do echo "set Twitter.$cf['b']['c'] = 'w-$cf'"; done
  echo "del Keyspace1.Standard2['k']"; echo "del Keyspace1.Super2['k']['s']"; } | "$PEER" cli "$PORT"
kill -9 "$PID"
cp "$BASE/node-$PORT"/data/commitlog/CommitLog-*.log "$HERE/"

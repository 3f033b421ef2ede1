#!/bin/bash
# Made CommitLog-1796628932119.log beside this script: a commit log segment written by a real Apache Cassandra
# 0.6.5 (built from its public source by peer-c06.sh, see peer-c06.md beside it; run on Java 17) and left by
# kill -9, for RealCassandra06SegmentTest. The node ran the sample Keyspace1 plus three keyspaces added
# after it in storage-conf.xml (Twitter with 14 column families, so that 0.6's HashMaps resize; Blog; Zeta), in
# batch mode. Writes through 0.6's cassandra-cli, a flush of Twitter, more writes and deletions, then kill -9.
# Only the file 0.6 wrote is kept; the segment's name and timestamps carry the machine clock of the day.
set -euo pipefail
TOOLS=${TOOLS:-/work/shared/tools}
export C06_MIRROR=${C06_MIRROR:-/work/.mirror/stuhood+cassandra-old/repo}
PORT=${PORT:-9292}
PEER_BASE=${PEER_BASE:-/tmp/peers/c06}          # an already built peer-c06.sh BASE
export BASE=${MINE:-/tmp/c06mine}               # a BASE sharing its build, with its own sample conf
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
PID=$(FRESH=1 COMMITLOG_SYNC=batch "$TOOLS/peer-c06.sh" start "$PORT")
{ for cf in Users Tweets Timeline Followers Devices Sessions; do echo "set Twitter.$cf['a']['c'] = 'v-$cf'"; done
  echo "set Keyspace1.Standard2['k']['x'] = 'y'"; echo "set Keyspace1.Super2['k']['s']['x'] = 'y'"; } | "$TOOLS/peer-c06.sh" cli "$PORT"
"$TOOLS/peer-c06.sh" nodetool "$PORT" flush Twitter; sleep 2
{ for cf in Users Mutes Hashtags; do echo "set Twitter.$cf['b']['c'] = 'w-$cf'"; done
  echo "del Keyspace1.Standard2['k']"; echo "del Keyspace1.Super2['k']['s']"; } | "$TOOLS/peer-c06.sh" cli "$PORT"
kill -9 "$PID"
cp "$BASE/node-$PORT"/data/commitlog/CommitLog-*.log "$(dirname "$0")/"

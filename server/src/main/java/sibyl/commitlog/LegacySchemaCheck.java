package sibyl.commitlog;

import java.io.IOException;
import java.nio.file.Path;
import sibyl.db.CFMetaData;
import sibyl.db.SystemKeyspace;
import sibyl.db.marshal.AbstractType;
import sibyl.db.marshal.BytesType;

/**
 * Whether a column family's part of a 0.6 commit log entry can be replayed into the column family
 * configured under its name now: the same type and comparators. Names are kept as bytes, so a
 * different comparator would not corrupt them, but it would order them otherwise than the SSTables
 * 0.6 wrote and than the client expects: that is a configuration to fix before starting, not
 * something to replay past.
 *
 * <p>The {@code system} keyspace is Sibyl's own definition, not the configuration's: its column
 * families compare names as bytes, where 0.6 compared LocationInfo's as UTF-8. Every name is valid
 * as bytes and 0.6's own are ASCII, which sorts alike either way, so those are taken as they are.
 */
final class LegacySchemaCheck {
    private LegacySchemaCheck() {
    }

    /**
     * @throws IOException naming the segment, offset, column family and both definitions, and what to do,
     *                     when {@code row} does not fit {@code configured}
     */
    static void check(LegacyMutation.Row row, CFMetaData configured, Path segment, long offset) throws IOException {
        String cf = configured.keyspace() + "." + configured.name();
        String problem = null;
        if (row.isSuper() != configured.isSuper()) {
            problem = "written to a " + row.type() + " column family, but " + cf + " is configured as "
                    + configured.columnType();
        } else if (!fits(configured, configured.comparator(), row.comparator())) {
            problem = "written with CompareWith " + row.comparator() + ", but " + cf + " is configured with "
                    + configured.comparator().className();
        } else if (row.isSuper() && !fits(configured, configured.subcomparator(), row.subcomparator())) {
            problem = "written with CompareSubcolumnsWith " + row.subcomparator() + ", but " + cf
                    + " is configured with " + configured.subcomparator().className();
        }
        if (problem != null) {
            throw new IOException("refusing to start: the Cassandra 0.6 commit log segment " + segment
                    + " holds at offset " + offset + " a write to " + cf + " " + problem + ". Configure " + cf
                    + " as the 0.6 node had it, or drain that node with its own Cassandra before switching to Sibyl;"
                    + " nothing was replayed or changed");
        }
    }

    private static boolean fits(CFMetaData cf, AbstractType configured, String written) {
        if (written.equals(configured.className()) || written.equals(configured.getClass().getName())) return true;
        return cf.keyspace().equals(SystemKeyspace.NAME) && configured instanceof BytesType;
    }
}

package sibyl.engine;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sibyl.db.DamagedDataException;
import sibyl.io.CorruptSSTableException;

/**
 * What one column family's reads say about damaged SSTable data: the client gets an error naming
 * the column family, the file and the problem, and pointing at nodetool scrub; the log gets one
 * line per damaged unit (block, row header, index entry: a file and offset), the first time a
 * read meets it, so a client reading a damaged row again and again does not fill the log.
 */
final class DamageReports {
    private static final Logger log = LoggerFactory.getLogger(DamageReports.class);
    /** Damaged units remembered; past this many, new ones go unlogged (after one line saying so). */
    static final int MAX_REMEMBERED = 10_000;

    private final String keyspace;
    private final String columnFamily;
    private final Set<String> reported = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean saturated = new AtomicBoolean();

    DamageReports(String keyspace, String columnFamily) {
        this.keyspace = keyspace;
        this.columnFamily = columnFamily;
    }

    /** Logs {@code damage} unless its unit was logged before; returns the error for the client. */
    DamagedDataException report(CorruptSSTableException damage) {
        String unit = damage.file() + "@" + damage.offset();
        if (reported.size() < MAX_REMEMBERED) {
            if (reported.add(unit)) {
                log.error("Damaged data in {}.{}: {}; reads of the rows there fail until `nodetool scrub {} {}`"
                        + " rewrites the column family without them", keyspace, columnFamily, damage.getMessage(),
                        keyspace, columnFamily);
            }
        } else if (!reported.contains(unit) && saturated.compareAndSet(false, true)) {
            log.error("Damaged data in {}.{}: more than {} damaged places met; further ones are not logged",
                    keyspace, columnFamily, MAX_REMEMBERED);
        }
        return new DamagedDataException("a data file of " + keyspace + "." + columnFamily + " is damaged ("
                + damage.file().getFileName() + " at offset " + damage.offset() + ": " + damage.problem()
                + "); the rows stored there cannot be read until an operator runs nodetool scrub " + keyspace + " "
                + columnFamily, damage);
    }
}

package sibyl.engine;

import java.io.IOException;
import java.util.Iterator;
import java.util.Map;
import sibyl.db.ColumnFamily;
import sibyl.dht.DecoratedKey;
import sibyl.dht.Partitioner;
import sibyl.io.Descriptor;
import sibyl.io.KeyCache;
import sibyl.io.SSTableReader;
import sibyl.io.SSTableWriter;

/** Writes one switched-out memtable as an SSTable and opens it. */
final class MemtableWriter {
    private MemtableWriter() {
    }

    /**
     * @param position recorded in the SSTable: restart skips replaying this store's log entries before it
     * @param keyCache the store's key cache, which the new SSTable's reads use
     * @throws IOException when the SSTable cannot be written or opened; nothing is left on disk then
     */
    static SSTableReader write(PendingFlush flush, Descriptor descriptor, Partitioner partitioner,
                               EngineSettings settings, KeyCache keyCache) throws IOException {
        Memtable memtable = flush.memtable();
        try (SSTableWriter writer = SSTableWriter.create(descriptor, memtable.metadata(), partitioner,
                settings.columnIndexSize(), settings.indexInterval(), memtable.rowCount())) {
            Iterator<Map.Entry<DecoratedKey, ColumnFamily>> rows =
                    memtable.rowsFrom(DecoratedKey.startOf(partitioner.getMinimumToken()));
            while (rows.hasNext()) {
                Map.Entry<DecoratedKey, ColumnFamily> row = rows.next();
                writer.append(row.getKey(), row.getValue());
            }
            writer.finish(flush.position());
        }
        return SSTableReader.openWritten(descriptor, memtable.metadata(), partitioner, settings.indexInterval(),
                keyCache, settings.fileAccess());
    }
}

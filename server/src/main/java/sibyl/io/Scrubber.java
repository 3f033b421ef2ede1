package sibyl.io;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sibyl.db.ColumnFamily;
import sibyl.dht.DecoratedKey;
import sibyl.dht.Partitioner;

/**
 * Rewrites one SSTable with every row whose checksums hold and without the rest: what an operator
 * runs (nodetool scrub) once reads have met a damaged block.
 *
 * <p>Rows are found through the index, whose entries carry their own checksums: the data file
 * alone cannot be walked, as a row of one block does not record its length. A row is kept when
 * its index entry, header and every block check out and decode; anything else drops the row and
 * is logged in a line naming the key and offset. An index entry that fails its checksum drops
 * its row and the walk goes on at the next entry; an index that ends early (truncated) ends the
 * walk. The rows dropped are counted against the row count of the Statistics component, so
 * rows an unreadable index hid are counted too.
 *
 * <p>A Cassandra 0.6 SSTable is scrubbed the same way into Sibyl's format: its index, checked
 * whole when it was opened, gives the rows; a row is kept when it decodes (0.6 wrote no
 * checksums), so a scrub is also how to rewrite 0.6 SSTables at once.
 *
 * <p>Nothing is merged or purged: the output holds exactly the kept rows, as stored (tombstones
 * and shadowed versions included), and records the input's commit log position, since it holds
 * nothing newer. Swapping it in is the store's job, as for a compaction.
 */
public final class Scrubber {
    private static final Logger log = LoggerFactory.getLogger(Scrubber.class);

    /**
     * What a scrub did.
     *
     * @param output      the rewritten SSTable; empty when no row could be kept (no file is left)
     * @param rowsKept    rows written to the output
     * @param rowsDropped rows the input's statistics count that could not be kept
     */
    public record Result(Optional<Descriptor> output, long rowsKept, long rowsDropped) {
    }

    private Scrubber() {
    }

    /**
     * Writes the readable rows of {@code input} as the SSTable {@code output}. The caller holds a
     * reference to {@code input} throughout.
     *
     * @throws IOException when the input cannot be read at all or the output cannot be written
     *                     (a full disk); the partial output is deleted
     */
    public static Result scrub(SSTableReader input, Descriptor output, Partitioner partitioner, int columnIndexSize,
                               int indexInterval) throws IOException {
        long expected = input.statistics().rowCount();
        PositionalFile data = input.dataFile();
        try (SSTableWriter writer = SSTableWriter.create(output, input.metadata(), partitioner, columnIndexSize,
                indexInterval, expected)) {
            IndexEntries index = input.indexEntries(0);
            DecoratedKey last = null;
            while (true) {
                long at = index.position();
                IndexEntry entry;
                try {
                    entry = index.next();
                } catch (CorruptSSTableException e) {
                    if (index.position() == at) {
                        log.warn("Scrub of {}: the index cannot be read past offset {} ({}); the rows after it are"
                                + " dropped", input.descriptor(), at, e.getMessage());
                        break;
                    }
                    log.warn("Scrub of {}: dropped the row of a damaged index entry: {}", input.descriptor(), e.getMessage());
                    continue;
                }
                if (entry == null) break;
                DecoratedKey key = partitioner.decorateKey(entry.key());
                try {
                    if (last != null && key.compareTo(last) <= 0) {
                        throw new CorruptSSTableException(input.indexFile().path(), entry.position(), "key " + entry.key()
                                + " out of ring order");
                    }
                    if (entry.dataOffset() + entry.rowLength() > data.length()) {
                        throw new CorruptSSTableException(input.indexFile().path(), entry.position(), "row of "
                                + entry.rowLength() + " bytes at " + entry.dataOffset() + " runs past the end of the data file");
                    }
                    ColumnFamily row = input.rows().decodeRow(data.read(entry.dataOffset(), entry.rowLength()), entry);
                    writer.append(key, row);
                    last = key;
                } catch (CorruptSSTableException e) {
                    log.warn("Scrub of {}: dropped row {} at data offset {}: {}", input.descriptor(), entry.key(),
                            entry.dataOffset(), e.getMessage());
                }
            }
            long kept = writer.rowCount();
            long dropped = Math.max(0, expected - kept);
            if (kept == 0) return new Result(Optional.empty(), 0, dropped);
            List<SSTableMetadata.Replaced> replaces = input.descriptor().format() == SSTableFormat.SIBYL
                    ? List.of(input.asReplaced()) : List.of();
            return new Result(Optional.of(writer.finish(input.statistics().logPosition(), replaces)), kept, dropped);
        }
    }
}

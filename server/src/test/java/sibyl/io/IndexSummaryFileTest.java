package sibyl.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.db.CFMetaData;
import sibyl.db.Column;
import sibyl.db.ColumnFamily;
import sibyl.db.LogPosition;
import sibyl.db.marshal.BytesType;
import sibyl.dht.DecoratedKey;
import sibyl.dht.RandomPartitioner;
import sibyl.engine.Memtable;
import sibyl.testing.LogCapture;

/** Opening an SSTable reads its index summary, not its index; without a usable one it scans. */
class IndexSummaryFileTest {
    private static final int ROWS = 3000;
    private static final int WRITTEN_INTERVAL = 16;

    @TempDir
    Path dir;

    private final RandomPartitioner partitioner = new RandomPartitioner();
    private final CFMetaData cf = CFMetaData.standard(SSTableFixtures.KS, "Standard1", BytesType.instance);

    private Descriptor write() throws IOException {
        Memtable memtable = new Memtable(cf, Runnable::run);
        for (int i = 0; i < ROWS; i++) {
            memtable.apply(partitioner.decorateKey("key" + i),
                    ColumnFamily.empty(cf).withCell(Column.live(SSTableFixtures.b("c"), SSTableFixtures.b("v" + i), 1)), 1);
        }
        Descriptor descriptor = new Descriptor(dir, cf.name(), 1);
        try (SSTableWriter writer = SSTableWriter.create(descriptor, cf, partitioner, 1024, WRITTEN_INTERVAL, ROWS)) {
            Iterator<Map.Entry<DecoratedKey, ColumnFamily>> rows = memtable.rowsFrom(DecoratedKey.startOf(partitioner.getMinimumToken()));
            while (rows.hasNext()) {
                Map.Entry<DecoratedKey, ColumnFamily> row = rows.next();
                writer.append(row.getKey(), row.getValue());
            }
            return writer.finish(new LogPosition(1, 1));
        }
    }

    @Test
    void openReadsTheSummaryAndNotTheIndex() throws IOException {
        Descriptor d = write();
        for (int interval : List.of(WRITTEN_INTERVAL, 4 * WRITTEN_INTERVAL)) {
            SSTableReader withSummary = SSTableReader.open(d, cf, partitioner, interval);
            try {
                assertEquals(0, withSummary.indexFile().bytesRead(), "interval " + interval + ": no index read to open");
                assertAnswersLikeAScan(d, withSummary, interval);
            } finally {
                withSummary.release();
            }
        }
    }

    @Test
    void withoutASummaryOpenScansTheIndex() throws IOException {
        Descriptor d = write();
        Files.delete(d.path(Component.SUMMARY)); // as an SSTable written before summaries
        SSTableReader scanned = SSTableReader.open(d, cf, partitioner, WRITTEN_INTERVAL);
        try {
            assertEquals(scanned.statistics().indexLength(), scanned.indexFile().bytesRead());
            assertNotNull(scanned.getRow(partitioner.decorateKey("key7")));
        } finally {
            scanned.release();
        }
    }

    @Test
    void anIntervalThatIsNoMultipleOfTheWrittenOneScans() throws IOException {
        Descriptor d = write();
        SSTableReader reader = SSTableReader.open(d, cf, partitioner, 24);
        try {
            assertEquals(reader.statistics().indexLength(), reader.indexFile().bytesRead());
            assertAnswersLikeAScan(d, reader, 24);
        } finally {
            reader.release();
        }
    }

    @Test
    void aDamagedOrTornSummaryIsNotBelievedAndOpenScans() throws IOException {
        Descriptor d = write();
        Path summary = d.path(Component.SUMMARY);
        byte[] sound = Files.readAllBytes(summary);
        List<byte[]> damaged = new ArrayList<>();
        byte[] flipped = sound.clone();
        flipped[sound.length / 2] ^= 0x10;
        damaged.add(flipped);
        damaged.add(java.util.Arrays.copyOf(sound, sound.length / 3));
        damaged.add(new byte[0]);
        for (byte[] bytes : damaged) {
            Files.write(summary, bytes);
            try (LogCapture logs = new LogCapture(IndexSummaryFile.class)) {
                SSTableReader reader = SSTableReader.open(d, cf, partitioner, WRITTEN_INTERVAL);
                try {
                    assertEquals(reader.statistics().indexLength(), reader.indexFile().bytesRead(), "scanned instead");
                    assertAnswersLikeAScan(d, reader, WRITTEN_INTERVAL);
                } finally {
                    reader.release();
                }
                List<String> warnings = logs.messages(Level.WARN);
                assertEquals(1, warnings.size(), warnings.toString());
                assertTrue(warnings.get(0).contains(summary.toString()), warnings.get(0));
            }
        }
    }

    @Test
    void aSummaryOfAnotherIndexIsNotBelieved() throws IOException {
        Descriptor d = write();
        Path summary = d.path(Component.SUMMARY);
        // A sound file whose index length does not match: checksum fixed, content wrong.
        try (RandomAccessFile f = new RandomAccessFile(summary.toFile(), "rw")) {
            f.seek(12); // after magic, version and interval
            long indexLength = f.readLong();
            f.seek(12);
            f.writeLong(indexLength - 1);
        }
        byte[] bytes = Files.readAllBytes(summary);
        Files.delete(summary);
        ChecksummedFile.write(summary, out -> out.write(bytes, 0, bytes.length - 4));
        SSTableReader reader = SSTableReader.open(d, cf, partitioner, WRITTEN_INTERVAL);
        try {
            assertEquals(reader.statistics().indexLength(), reader.indexFile().bytesRead());
        } finally {
            reader.release();
        }
    }

    /** Every key found, absent keys not, and the same describe_splits samples as a scan gives. */
    private void assertAnswersLikeAScan(Descriptor d, SSTableReader reader, int interval) throws IOException {
        for (int i = 0; i < ROWS; i++) {
            ColumnFamily row = reader.getRow(partitioner.decorateKey("key" + i));
            assertNotNull(row, "key" + i);
            assertEquals(Column.live(SSTableFixtures.b("c"), SSTableFixtures.b("v" + i), 1), row.cell(SSTableFixtures.b("c")));
        }
        assertNull(reader.getRow(partitioner.decorateKey("absent")));
        Path summary = d.path(Component.SUMMARY);
        Path aside = dir.resolve("summary-aside");
        boolean had = Files.exists(summary);
        if (had) Files.move(summary, aside);
        SSTableReader scanned = SSTableReader.open(d, cf, partitioner, interval);
        try {
            assertEquals(scanned.sampleKeys(interval), reader.sampleKeys(interval));
            assertEquals(scanned.sampleKeys(interval * 2), reader.sampleKeys(interval * 2));
            List<String> scannedRows = new ArrayList<>();
            List<String> readRows = new ArrayList<>();
            DecoratedKey from = partitioner.decorateKey("key100");
            scanned.rowsFrom(from).forEachRemaining(e -> scannedRows.add(e.getKey().key()));
            reader.rowsFrom(from).forEachRemaining(e -> readRows.add(e.getKey().key()));
            assertEquals(scannedRows, readRows);
        } finally {
            scanned.release();
            if (had) Files.move(aside, summary);
        }
    }
}

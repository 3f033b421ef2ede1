package sibyl.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.function.Function;
import java.util.stream.Stream;
import sibyl.db.CFMetaData;
import sibyl.db.ColumnFamily;
import sibyl.db.LogPosition;
import sibyl.dht.DecoratedKey;
import sibyl.dht.Partitioner;
import sibyl.io.Descriptor;
import sibyl.io.SSTableWriter;

/** SSTables written for the benchmarks that read them, in temporary directories they delete afterwards. */
final class BenchSSTables {
    private BenchSSTables() {
    }

    /**
     * Writes one SSTable of {@code keys} (any order) in {@code directory}, each row made by {@code rows}, with a column
     * index block every 64 KB and IndexInterval 128.
     */
    static Descriptor write(Path directory, CFMetaData metadata, Partitioner partitioner, DecoratedKey[] keys,
                            Function<DecoratedKey, ColumnFamily> rows) throws IOException {
        DecoratedKey[] ringOrder = keys.clone();
        Arrays.sort(ringOrder);
        Descriptor descriptor = new Descriptor(directory, ThriftMessages.COLUMN_FAMILY, 1);
        try (SSTableWriter writer = SSTableWriter.create(descriptor, metadata, partitioner, 64 << 10, 128,
                keys.length)) {
            for (DecoratedKey key : ringOrder) writer.append(key, rows.apply(key));
            writer.finish(LogPosition.NONE);
        }
        return descriptor;
    }

    /** Deletes {@code directory} and everything in it. */
    static void delete(Path directory) throws IOException {
        try (Stream<Path> files = Files.walk(directory)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) Files.delete(p);
        }
    }
}

package sibyl.tools;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import sibyl.config.ConfigurationException;
import sibyl.config.StorageConf;
import sibyl.config.StorageConfLoader;
import sibyl.db.CFMetaData;
import sibyl.db.KSMetaData;
import sibyl.dht.Partitioner;
import sibyl.dht.Partitioners;
import sibyl.io.Descriptor;
import sibyl.io.SSTableDirectory;
import sibyl.service.NodeSchema;

/**
 * A node's storage as its storage-conf.xml describes it: the schema, the partitioner and where
 * each keyspace's SSTables live. For tools that run beside the node, or while it is stopped: it
 * only reads the directories and never removes anything (a running node's temporary files are
 * its own business).
 */
final class OfflineStorage {
    private final StorageConf conf;
    private final List<KSMetaData> schema;
    private final Partitioner partitioner;

    private OfflineStorage(StorageConf conf, List<KSMetaData> schema, Partitioner partitioner) {
        this.conf = conf;
        this.schema = schema;
        this.partitioner = partitioner;
    }

    /**
     * Loads {@code confDir}/storage-conf.xml; relative directories in it resolve against
     * {@code home}, the install directory, as for the node.
     */
    static OfflineStorage load(Path confDir, Path home) throws ToolError {
        Path file = confDir.resolve("storage-conf.xml");
        if (!Files.isRegularFile(file)) throw new ToolError("no storage-conf.xml in " + confDir + " (--conf DIR names the directory)");
        StorageConf conf;
        try {
            conf = StorageConfLoader.load(file, home);
        } catch (ConfigurationException | IllegalArgumentException e) {
            throw new ToolError("cannot use " + file + ": " + e.getMessage(), e);
        }
        if (conf.cluster().isPresent()) {
            throw new ToolError(file + " stores into a Cassandra cluster (its Cluster element): a node so configured keeps"
                    + " no SSTables of its own to export or import into");
        }
        try {
            return new OfflineStorage(conf, NodeSchema.served(conf), Partitioners.forName(conf.partitioner()));
        } catch (IOException | ConfigurationException e) {
            throw new ToolError("cannot use " + file + ": " + e.getMessage(), e);
        }
    }

    Partitioner partitioner() {
        return partitioner;
    }

    /** IndexInterval: the index sample SSTables written here carry. */
    int indexInterval() {
        return conf.indexInterval();
    }

    /** ColumnIndexSizeInKB × 1024. */
    int columnIndexSize() {
        return conf.columnIndexSizeInKB() << 10;
    }

    Optional<KSMetaData> keyspace(String name) {
        return schema.stream().filter(ks -> ks.name().equals(name)).findFirst();
    }

    /** The configured column family; the error names what the configuration lacks. */
    CFMetaData columnFamily(String keyspace, String columnFamily) throws ToolError {
        KSMetaData ks = keyspace(keyspace).orElseThrow(() -> new ToolError("keyspace " + keyspace
                + " is not in " + conf.configFile()));
        return ks.columnFamily(columnFamily).orElseThrow(() -> new ToolError("column family " + columnFamily
                + " is not in keyspace " + keyspace + " of " + conf.configFile()));
    }

    /** The keyspace's directory in each DataFileDirectory. */
    List<Path> directories(String keyspace) {
        List<Path> dirs = new ArrayList<>();
        for (Path data : conf.dataFileDirectories()) dirs.add(Descriptor.directory(data, keyspace));
        return dirs;
    }

    /** The complete SSTables of a column family over every data directory, oldest generation first. */
    List<Descriptor> sstables(String keyspace, String columnFamily) throws IOException {
        List<Descriptor> found = new ArrayList<>();
        for (Path dir : directories(keyspace)) found.addAll(SSTableDirectory.list(dir, columnFamily));
        found.sort(Comparator.comparingInt(Descriptor::generation));
        return found;
    }

    /** The highest generation any SSTable file of the keyspace has, temporary or complete; -1 if none. */
    int highestGeneration(String keyspace) throws IOException {
        int highest = -1;
        for (Path dir : directories(keyspace)) highest = Math.max(highest, SSTableDirectory.highestGeneration(dir));
        return highest;
    }

    /** Whether a writer holds that generation of the column family in any of the keyspace's directories. */
    boolean generationInUse(String keyspace, String columnFamily, int generation) {
        return SSTableDirectory.generationInUse(directories(keyspace), columnFamily, generation);
    }

    /** The keyspace directory on the data directory with the most usable space, as the node picks for a flush. */
    Path roomiestDirectory(String keyspace) {
        return SSTableDirectory.roomiest(directories(keyspace));
    }
}

package sibyl.service;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sibyl.config.ConfigurationException;
import sibyl.config.ElementPath;
import sibyl.config.StorageConf;
import sibyl.db.CFMetaData;
import sibyl.db.KSMetaData;
import sibyl.db.LogPosition;
import sibyl.db.SystemKeyspace;

/**
 * The node's one schema, made of two parts that never share a keyspace (docs/configuration.md §Keyspaces made by
 * API): the keyspaces of storage-conf.xml, which the file owns and a reload changes, and those made by API, which
 * the API owns and {@link SchemaFile} keeps. Every change of either part goes to the store as the whole schema
 * through {@link Reconfigurable}, one change at a time, so that stores, locks and caches behave alike whichever
 * part changed.
 */
public final class NodeSchema implements SchemaEditor {
    private static final Logger log = LoggerFactory.getLogger(NodeSchema.class);

    private final Reconfigurable backend;
    /** Where the API's keyspaces are kept; empty for a node that keeps nothing (tests' memory-only stores). */
    private final Optional<SchemaFile> file;
    private StorageConf running; // guarded by this
    private List<KSMetaData> configured; // storage-conf.xml's keyspaces and system, guarded by this
    private SchemaFile.Contents made; // guarded by this

    /**
     * @param running    the configuration the store was opened with
     * @param configured its keyspaces ({@link ConfiguredSchema#keyspaces})
     * @param made       what the schema file held when the store was opened
     */
    public NodeSchema(StorageConf running, List<KSMetaData> configured, SchemaFile.Contents made,
                      Reconfigurable backend, Optional<SchemaFile> file) {
        this.running = Objects.requireNonNull(running, "running");
        this.configured = List.copyOf(configured);
        this.made = Objects.requireNonNull(made, "made");
        this.backend = Objects.requireNonNull(backend, "backend");
        this.file = Objects.requireNonNull(file, "file");
    }

    /**
     * Every keyspace the store serves: storage-conf.xml's (and system) in the file's order, then those made by API
     * in the order they were made (after system, so that the column family numbers a Cassandra 0.6 commit log
     * derives from the file's order stay as they were).
     *
     * @throws ConfigurationException naming {@code configFile} when it defines a keyspace made by API
     */
    public static List<KSMetaData> merged(java.nio.file.Path configFile, List<KSMetaData> configured,
                                          SchemaFile.Contents made) throws ConfigurationException {
        List<KSMetaData> all = new ArrayList<>(configured);
        for (KSMetaData ks : made.keyspaces()) {
            if (configured.stream().anyMatch(c -> c.name().equalsIgnoreCase(ks.name()))) {
                throw new ConfigurationException(configFile, ElementPath.keyspace(ks.name()), "keyspace " + ks.name()
                        + " was made by API (system_add_keyspace) and is kept in the schema file of the data directory;"
                        + " the file may not define it too: drop it by API first, or give the file's keyspace another"
                        + " name (docs/configuration.md §Keyspaces made by API)");
            }
            all.add(ks);
        }
        return all;
    }

    /**
     * Every keyspace a node of {@code conf} serves, those made by API included: for the offline tools, which read
     * and write the same files as the node.
     *
     * @throws IOException            when the schema file is damaged
     * @throws ConfigurationException when the file defines a keyspace made by API
     */
    public static List<KSMetaData> served(StorageConf conf) throws IOException, ConfigurationException {
        return merged(conf.configFile(), ConfiguredSchema.keyspaces(conf), SchemaFile.of(conf).read());
    }

    /**
     * Applies a reloaded storage-conf.xml: its keyspaces replace the file's part; the keyspaces made by API stay.
     * Called by {@link ConfigReloader}.
     */
    synchronized void reload(StorageConf reloaded) throws ConfigurationException, InterruptedException {
        List<KSMetaData> next = ConfiguredSchema.keyspaces(reloaded);
        backend.reconfigure(reloaded, merged(reloaded.configFile(), next, made));
        running = reloaded;
        configured = next;
    }

    // ---- changes by API

    @Override
    public synchronized void addKeyspace(KSMetaData keyspace) throws SchemaRefusedException, InterruptedException {
        Optional<KSMetaData> clash = all().stream().filter(ks -> ks.name().equalsIgnoreCase(keyspace.name())).findFirst();
        if (clash.isPresent()) {
            throw new SchemaRefusedException("Keyspace names must be case-insensitively unique (\"" + keyspace.name()
                    + "\" conflicts with \"" + clash.get().name() + "\")");
        }
        List<KSMetaData> keyspaces = new ArrayList<>(made.keyspaces());
        keyspaces.add(keyspace);
        change(new SchemaFile.Contents(keyspaces, made.dropped()));
        log.info("Keyspace {} made by API with column families {}", keyspace.name(), names(keyspace));
    }

    @Override
    public synchronized void updateKeyspace(String keyspace, int replicationFactor)
            throws SchemaRefusedException, InterruptedException {
        KSMetaData ks = madeByApi(keyspace, "Keyspace " + keyspace + " does not exist");
        change(replaced(keyspace, k -> new KSMetaData(k.name(), replicationFactor, k.columnFamilies())));
        log.info("Keyspace {} updated by API: replication factor {} (was {})", keyspace, replicationFactor,
                ks.replicationFactor());
    }

    @Override
    public synchronized void dropKeyspace(String keyspace) throws SchemaRefusedException, InterruptedException {
        KSMetaData ks = madeByApi(keyspace, "Cannot drop non existing keyspace '" + keyspace + "'.");
        List<KSMetaData> keyspaces = new ArrayList<>(made.keyspaces());
        keyspaces.remove(ks);
        drop(keyspaces, ks.columnFamilies());
        log.info("Keyspace {} dropped by API with column families {}; their data is set aside", keyspace, names(ks));
    }

    @Override
    public synchronized void addColumnFamily(CFMetaData cf) throws SchemaRefusedException, InterruptedException {
        KSMetaData ks = madeByApi(cf.keyspace(),
                "Cannot add table '" + cf.name() + "' to non existing keyspace '" + cf.keyspace() + "'.");
        if (ks.columnFamily(cf.name()).isPresent()) {
            throw new SchemaRefusedException("Cannot add already existing table \"" + cf.name() + "\" to keyspace \""
                    + cf.keyspace() + "\"");
        }
        change(replaced(cf.keyspace(), k -> {
            List<CFMetaData> cfs = new ArrayList<>(k.columnFamilies());
            cfs.add(cf);
            return new KSMetaData(k.name(), k.replicationFactor(), cfs);
        }));
        log.info("Column family {}.{} made by API", cf.keyspace(), cf.name());
    }

    @Override
    public synchronized void updateColumnFamily(CFMetaData cf) throws SchemaRefusedException, InterruptedException {
        KSMetaData ks = madeByApi(cf.keyspace(), "Keyspace " + cf.keyspace() + " does not exist");
        CFMetaData current = ks.columnFamily(cf.name()).orElseThrow(() ->
                new SchemaRefusedException("unconfigured table " + cf.name()));
        if (!current.sameRowsAs(cf)) {
            throw new SchemaRefusedException("Sibyl does not change the column type, comparator or subcomparator of"
                    + " table " + cf.keyspace() + "." + cf.name() + " (" + describe(current) + "): the names already"
                    + " written are ordered by them; only comment and gc_grace_seconds change");
        }
        change(replaced(cf.keyspace(), k -> {
            List<CFMetaData> cfs = new ArrayList<>(k.columnFamilies());
            cfs.replaceAll(c -> c.name().equals(cf.name()) ? cf : c);
            return new KSMetaData(k.name(), k.replicationFactor(), cfs);
        }));
        log.info("Column family {}.{} updated by API", cf.keyspace(), cf.name());
    }

    @Override
    public synchronized void dropColumnFamily(String keyspace, String columnFamily)
            throws SchemaRefusedException, InterruptedException {
        KSMetaData ks = madeByApi(keyspace, "Keyspace " + keyspace + " does not exist");
        CFMetaData cf = ks.columnFamily(columnFamily).orElseThrow(() ->
                new SchemaRefusedException("unconfigured table " + columnFamily));
        List<KSMetaData> keyspaces = new ArrayList<>(made.keyspaces());
        List<CFMetaData> cfs = new ArrayList<>(ks.columnFamilies());
        cfs.remove(cf);
        keyspaces.set(keyspaces.indexOf(ks), new KSMetaData(ks.name(), ks.replicationFactor(), cfs));
        drop(keyspaces, List.of(cf));
        log.info("Column family {}.{} dropped by API; its data is set aside", keyspace, columnFamily);
    }

    /**
     * The keyspace made by API of that name.
     *
     * @throws SchemaRefusedException {@code missing} when there is none; why not when storage-conf.xml owns it
     */
    private KSMetaData madeByApi(String keyspace, String missing) throws SchemaRefusedException {
        if (SystemKeyspace.NAME.equals(keyspace)) throw new SchemaRefusedException("system keyspace is not user-modifiable");
        for (KSMetaData ks : made.keyspaces()) if (ks.name().equals(keyspace)) return ks;
        if (configured.stream().anyMatch(ks -> ks.name().equals(keyspace))) {
            throw new SchemaRefusedException("keyspace " + keyspace + " is defined in " + running.configFile()
                    + ", which alone changes it: edit the file and reload it (bin/nodetool reloadconf); the API changes"
                    + " only keyspaces made by API (docs/configuration.md §Keyspaces made by API)");
        }
        throw new SchemaRefusedException(missing);
    }

    private SchemaFile.Contents replaced(String keyspace, UnaryOperator<KSMetaData> change) {
        List<KSMetaData> keyspaces = new ArrayList<>(made.keyspaces());
        keyspaces.replaceAll(ks -> ks.name().equals(keyspace) ? change.apply(ks) : ks);
        return new SchemaFile.Contents(keyspaces, made.dropped());
    }

    /**
     * Adds or changes: kept first, then applied; a store that refuses gets the file back as it was, so that what is
     * kept is what is served, and a crash between the two applies the change at the next start.
     */
    private void change(SchemaFile.Contents next) throws SchemaRefusedException, InterruptedException {
        List<KSMetaData> keyspaces = keyspaces(next);
        keep(next);
        try {
            backend.reconfigure(running, keyspaces);
        } catch (ConfigurationException | RuntimeException | InterruptedException e) {
            try {
                keep(made);
            } catch (SchemaRefusedException again) {
                e.addSuppressed(again);
            }
            if (e instanceof InterruptedException interrupted) throw interrupted;
            throw new SchemaRefusedException(refusal(e), e);
        }
        made = next;
    }

    /**
     * Drops: applied first (the store sets the data aside and says where its log stood), then kept with that
     * position. A crash between the two leaves the column families defined at the next start, empty but for what
     * the log held of them; dropping them again finishes the drop.
     */
    private void drop(List<KSMetaData> keyspacesLeft, List<CFMetaData> dropped)
            throws SchemaRefusedException, InterruptedException {
        SchemaFile.Contents left = new SchemaFile.Contents(keyspacesLeft, made.dropped());
        LogPosition at;
        IOException notSetAside = null;
        try {
            at = backend.drop(running, keyspaces(left), dropped);
        } catch (IOException e) {
            // Dropped all the same: what could not be moved stays where it was, named in the log.
            log.error("Dropped by API, but not all of the data was set aside", e);
            notSetAside = e;
            at = LogPosition.NONE;
        } catch (ConfigurationException | RuntimeException e) {
            throw new SchemaRefusedException(refusal(e), e);
        }
        List<SchemaFile.Dropped> drops = new ArrayList<>(made.dropped());
        for (CFMetaData cf : dropped) {
            drops.removeIf(d -> d.keyspace().equals(cf.keyspace()) && d.name().equals(cf.name()));
            if (!at.equals(LogPosition.NONE)) drops.add(new SchemaFile.Dropped(cf.keyspace(), cf.name(), at));
        }
        SchemaFile.Contents next = new SchemaFile.Contents(keyspacesLeft, drops);
        made = next;
        keep(next);
        if (notSetAside != null) {
            throw new SchemaRefusedException("dropped, but part of its data could not be set aside and stays where"
                    + " it was: " + notSetAside.getMessage(), notSetAside);
        }
    }

    private void keep(SchemaFile.Contents contents) throws SchemaRefusedException {
        if (file.isEmpty()) return;
        try {
            file.get().write(contents);
        } catch (IOException e) {
            log.error("Cannot write the schema file {}", file.get().path(), e);
            throw new SchemaRefusedException("Sibyl could not write its schema file " + file.get().path() + ": "
                    + e.getMessage(), e);
        }
    }

    private List<KSMetaData> keyspaces(SchemaFile.Contents contents) throws SchemaRefusedException {
        try {
            return merged(running.configFile(), configured, contents);
        } catch (ConfigurationException e) {
            throw new SchemaRefusedException(e.problem(), e);
        }
    }

    private List<KSMetaData> all() {
        List<KSMetaData> all = new ArrayList<>(configured);
        all.addAll(made.keyspaces());
        return all;
    }

    private static String refusal(Exception e) {
        return e instanceof ConfigurationException c ? c.problem() : String.valueOf(e.getMessage());
    }

    private static List<String> names(KSMetaData ks) {
        return ks.columnFamilies().stream().map(CFMetaData::name).toList();
    }

    private static String describe(CFMetaData cf) {
        return cf.columnType() + ", " + cf.comparator().className()
                + (cf.isSuper() ? ", " + cf.subcomparator().className() : "");
    }
}

package sibyl.engine;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import sibyl.config.ConfigurationException;
import sibyl.config.ElementPath;
import sibyl.db.CFMetaData;
import sibyl.db.CacheConfig;
import sibyl.db.KSMetaData;
import sibyl.db.SystemKeyspace;
import sibyl.service.Schema;

/**
 * One reload's change to the keyspaces the engine serves (docs/configuration.md §Reloading without a
 * restart), planned in full before any of it is applied, in three steps: {@link #prepare} opens
 * what new column families find on disk; {@link #lockAndCheck} stops the writes of the keyspaces
 * that lose a column family (or go) and checks that those hold nothing; {@link #apply} then swaps
 * the new schema in and lets the writes go on. A step that fails undoes the ones before, so a
 * refused reload leaves the engine as it was.
 *
 * <p>Stores of column families that stay are kept, with their data, locks and caches: a reload
 * only hands them their new configuration.
 */
final class SchemaChange {
    /** The keyspaces served at one moment and the schema they make, swapped as one. */
    record Catalog(Map<String, Keyspace> keyspaces, Schema schema) {
        Catalog {
            keyspaces = Collections.unmodifiableMap(new LinkedHashMap<>(keyspaces));
        }

        static Catalog of(List<Keyspace> keyspaces) {
            Map<String, Keyspace> byName = new LinkedHashMap<>();
            List<KSMetaData> schema = new ArrayList<>();
            for (Keyspace ks : keyspaces) {
                if (byName.put(ks.name(), ks) != null) {
                    throw new IllegalArgumentException("keyspace " + ks.name() + " defined twice");
                }
                schema.add(ks.metadata());
            }
            return new Catalog(byName, new Schema(schema));
        }
    }

    /** An existing keyspace as the reload leaves it. */
    private record Kept(Keyspace keyspace, KSMetaData metadata, List<ColumnFamilyStore> stores,
                        List<ColumnFamilyStore> added, List<ColumnFamilyStore> removed) {
    }

    private final Path file;
    private final List<Keyspace> order = new ArrayList<>();
    private final List<Kept> kept = new ArrayList<>();
    private final Map<ColumnFamilyStore, CFMetaData> reconfigured = new LinkedHashMap<>();
    private final List<Keyspace> created = new ArrayList<>();
    private final List<Keyspace> dropped = new ArrayList<>();
    private final Map<String, Persistence.NewStores> opened = new LinkedHashMap<>();
    private final List<Keyspace> locked = new ArrayList<>();

    private SchemaChange(Path file) {
        this.file = file;
    }

    /**
     * @param file      the configuration file refusals name
     * @param current   what is served now
     * @param wanted    every keyspace the reloaded file configures, in its order ({@code system} kept when absent)
     * @param newKeyspace builds a keyspace the reload adds, with a new store per column family
     * @param newStore  builds the store of a column family the reload adds to an existing keyspace
     * @throws IllegalArgumentException when a column family that stays changes its type or comparators
     *                                  (the configuration diff refuses that before)
     */
    static SchemaChange plan(Path file, Catalog current, List<KSMetaData> wanted,
                             Function<KSMetaData, Keyspace> newKeyspace, Function<CFMetaData, ColumnFamilyStore> newStore) {
        SchemaChange change = new SchemaChange(file);
        Map<String, KSMetaData> byName = new LinkedHashMap<>();
        for (KSMetaData ks : wanted) byName.put(ks.name(), ks);
        Keyspace system = current.keyspaces().get(SystemKeyspace.NAME);
        if (!byName.containsKey(SystemKeyspace.NAME) && system != null) byName.put(SystemKeyspace.NAME, system.metadata());
        for (KSMetaData ks : byName.values()) {
            Keyspace existing = current.keyspaces().get(ks.name());
            if (existing == null) {
                Keyspace added = newKeyspace.apply(ks);
                change.created.add(added);
                change.order.add(added);
                continue;
            }
            change.order.add(existing);
            List<ColumnFamilyStore> stores = new ArrayList<>();
            List<ColumnFamilyStore> added = new ArrayList<>();
            for (CFMetaData cf : ks.columnFamilies()) {
                ColumnFamilyStore store = existing.stores().stream()
                        .filter(s -> s.metadata().name().equals(cf.name())).findFirst().orElse(null);
                if (store == null) {
                    store = newStore.apply(cf);
                    added.add(store);
                } else {
                    store.checkReconfigurable(cf);
                    change.reconfigured.put(store, cf);
                }
                stores.add(store);
            }
            List<ColumnFamilyStore> removed = new ArrayList<>();
            for (ColumnFamilyStore store : existing.stores()) {
                if (ks.columnFamily(store.metadata().name()).isEmpty()) removed.add(store);
            }
            change.kept.add(new Kept(existing, ks, stores, added, removed));
        }
        for (Keyspace ks : current.keyspaces().values()) {
            if (!byName.containsKey(ks.name())) change.dropped.add(ks);
        }
        return change;
    }

    /**
     * Opens what the new column families find on disk (see {@link Persistence#open}).
     *
     * @throws ConfigurationException naming the keyspace when something cannot be opened; nothing stays open
     */
    void prepare(Persistence persistence) throws ConfigurationException {
        try {
            for (Keyspace ks : created) {
                opened.put(ks.name(), persistence.open(ks.name(), new ArrayList<>(ks.stores())));
            }
            for (Kept k : kept) {
                if (!k.added().isEmpty()) opened.put(k.keyspace().name(), persistence.open(k.keyspace().name(), k.added()));
            }
        } catch (IOException e) {
            discard();
            throw new ConfigurationException(file, ElementPath.keyspace(keyspaceOf(e)), e.getMessage(), e);
        }
    }

    /** The keyspace being opened when {@code e} happened: the last one tried. */
    private String keyspaceOf(IOException e) {
        List<String> names = new ArrayList<>();
        for (Keyspace ks : created) names.add(ks.name());
        for (Kept k : kept) if (!k.added().isEmpty()) names.add(k.keyspace().name());
        for (String name : names) if (!opened.containsKey(name)) return name;
        return names.isEmpty() ? "" : names.get(names.size() - 1);
    }

    private void discard() {
        opened.values().forEach(Persistence.NewStores::discard);
        opened.clear();
    }

    /**
     * Stops the writes of every keyspace that loses a column family or goes (taking its switch lock in write
     * mode, which a write holds in read mode from logging to applying), then checks that what goes holds nothing.
     * The locks are held until {@link #apply} or, on refusal, let go here.
     *
     * @param goingWithData the column families that go whatever they hold (a drop by API), as {@code keyspace/name}
     * @throws ConfigurationException naming the first other removed column family or keyspace that holds data
     */
    void lockAndCheck(Set<String> goingWithData) throws ConfigurationException {
        try {
            for (Kept k : kept) {
                if (k.removed().isEmpty()) continue;
                lock(k.keyspace());
                for (ColumnFamilyStore store : k.removed()) {
                    if (goingWithData.contains(k.keyspace().name() + "/" + store.metadata().name())) continue;
                    String held = store.dataHeld();
                    if (held != null) {
                        throw new ConfigurationException(file, ElementPath.columnFamily(k.keyspace().name(),
                                store.metadata().name()), "column family removed, but " + k.keyspace().name() + "."
                                + store.metadata().name() + " holds data (" + held + "); only a column family that"
                                + " holds nothing is removed while the node runs: put it back in the file (to drop it"
                                + " with its data, stop the node, remove it and delete its SSTables)");
                    }
                }
            }
            for (Keyspace ks : dropped) {
                lock(ks);
                for (ColumnFamilyStore store : ks.stores()) {
                    if (goingWithData.contains(ks.name() + "/" + store.metadata().name())) continue;
                    String held = store.dataHeld();
                    if (held != null) {
                        throw new ConfigurationException(file, ElementPath.keyspace(ks.name()), "keyspace removed,"
                                + " but its column family " + store.metadata().name() + " holds data (" + held
                                + "); only a keyspace whose column families hold nothing is removed while the node"
                                + " runs: put it back in the file");
                    }
                }
            }
        } catch (ConfigurationException | RuntimeException e) {
            unlock();
            discard();
            throw e;
        }
    }

    private void lock(Keyspace ks) {
        ks.switchLock().writeLock().lock();
        locked.add(ks);
    }

    private void unlock() {
        for (Keyspace ks : locked) ks.switchLock().writeLock().unlock();
        locked.clear();
    }

    /**
     * Swaps the new schema in: the stores that stay take their new configuration, each kept keyspace its new
     * set of stores, a removed keyspace refuses the writes that found it before; then writes go on and the new
     * stores are served.
     *
     * @return what is served from now on
     */
    Catalog apply(Persistence persistence) {
        Catalog next;
        List<ColumnFamilyStore> newSavePeriods = new ArrayList<>();
        try {
            for (Map.Entry<ColumnFamilyStore, CFMetaData> e : reconfigured.entrySet()) {
                ColumnFamilyStore store = e.getKey();
                CacheConfig was = store.metadata().caches();
                CacheConfig is = e.getValue().caches();
                if (!was.keySavePeriod().equals(is.keySavePeriod()) || !was.rowSavePeriod().equals(is.rowSavePeriod())) {
                    newSavePeriods.add(store);
                }
                store.reconfigure(e.getValue());
            }
            for (Kept k : kept) k.keyspace().replaceSchema(k.metadata(), k.stores());
            for (Keyspace ks : dropped) ks.markRemoved();
            next = Catalog.of(order);
        } finally {
            unlock();
        }
        opened.values().forEach(Persistence.NewStores::serve);
        persistence.reconfigured(newSavePeriods, removed());
        return next;
    }

    /** The stores of the column families the change removes, those of removed keyspaces included. */
    List<ColumnFamilyStore> removed() {
        List<ColumnFamilyStore> removed = new ArrayList<>();
        for (Kept k : kept) removed.addAll(k.removed());
        for (Keyspace ks : dropped) removed.addAll(ks.stores());
        return removed;
    }

    /** The keyspaces the reload adds. */
    List<Keyspace> created() {
        return created;
    }
}

package sibyl.config;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What changed between the configuration a node runs with and its storage-conf.xml read again
 * (bin/nodetool reloadconf, SIGHUP), computed in full before anything is applied. What a node
 * applies live (docs/configuration.md §Reloading without a restart): new keyspaces and column
 * families, removed ones (the node refuses those that hold data), the column family attributes
 * and keyspace children whose declaration ({@link ColumnFamilySettings}, {@link KeyspaceSettings})
 * says so (caches, GCGraceSeconds, comment and the settings that have no effect), and the global
 * settings whose declaration ({@link NodeSettings}) says they apply live. Any other change is
 * refused, and with it the whole file: the refusal names the element, what changed and why it
 * takes a restart (or, for what stored data depends on, why it cannot change at all). The
 * children of {@code <Cluster>} ({@link ClusterSettings}) all take a restart, but for the
 * DatacenterReplication a new keyspace brings along.
 *
 * <p>Settings the loader checks and does not keep (the ring's Seeds, 0.6's buffer sizes) have no
 * effect, so changing them changes nothing here.
 */
public final class ConfigDiff {
    private static final String CLUSTER_MODE = "whether the node stores into a cluster or its own engine is"
            + " chosen when it starts; restart it to apply this";
    private static final String CLUSTER_REPLICATION = "a CQL keyspace's replication is set when Sibyl creates it"
            + " and never altered by Sibyl; change it in the cluster with ALTER KEYSPACE";

    private final List<ConfigChange> changes;

    private ConfigDiff(List<ConfigChange> changes) {
        this.changes = List.copyOf(changes);
    }

    /**
     * @param running  the configuration the node runs with
     * @param reloaded the file as it reads now, loaded in full
     * @throws ConfigurationException naming {@code reloaded}'s file and the first element (global ones in the
     *                                order {@link NodeSettings} declares them, then the keyspaces, then the
     *                                cluster) whose change cannot be applied live, what changed and why
     */
    public static ConfigDiff between(StorageConf running, StorageConf reloaded) throws ConfigurationException {
        List<ConfigChange> changes = new ArrayList<>();
        Comparison c = new Comparison(running, reloaded, changes);
        for (Setting<?> setting : NodeSettings.ALL) c.global(setting);
        c.keyspaces();
        c.cluster();
        return new ConfigDiff(changes);
    }

    /** The changes to apply, in the order of {@link #between}; empty when the file changed nothing the node uses. */
    public List<ConfigChange> changes() {
        return changes;
    }

    public boolean isEmpty() {
        return changes.isEmpty();
    }

    /** One comparison under way: the two configurations and the changes found so far. */
    private record Comparison(StorageConf before, StorageConf after, List<ConfigChange> changes) {
        /**
         * A global element as its declaration says: a change applied live, or refused as taking a restart;
         * the schema and the cluster are compared part by part after the global elements.
         */
        <T> void global(Setting<T> setting) throws ConfigurationException {
            Object was = setting.shown(before.get(setting));
            Object is = setting.shown(after.get(setting));
            switch (setting.appliesTo().reload()) {
                case RESTART -> refuseChange(setting.path(), was, is, setting.appliesTo().restartReason());
                case LIVE -> liveChange(setting.path(), was, is, "");
                case BY_PART, NO_EFFECT -> { }
            }
        }

        void refuseChange(String element, Object was, Object is, String why) throws ConfigurationException {
            if (!Objects.equals(was, is)) throw refusal(element, changed(was, is) + "; " + why);
        }

        void liveChange(String element, Object was, Object is, String note) {
            if (!Objects.equals(was, is)) changes.add(new ConfigChange(element, changed(was, is) + note));
        }

        ConfigurationException refusal(String element, String problem) {
            return new ConfigurationException(after.configFile(), element, problem);
        }

        void keyspaces() throws ConfigurationException {
            for (KeyspaceConf ks : after.keyspaces()) {
                Optional<KeyspaceConf> was = before.keyspace(ks.name());
                if (was.isEmpty()) {
                    changes.add(new ConfigChange(ElementPath.keyspace(ks.name()), "new keyspace with column families "
                            + String.join(", ", ks.columnFamilies().stream().map(ColumnFamilyConf::name).toList())));
                } else {
                    keyspace(was.get(), ks);
                }
            }
            for (KeyspaceConf ks : before.keyspaces()) {
                if (after.keyspace(ks.name()).isEmpty()) {
                    changes.add(new ConfigChange(ElementPath.keyspace(ks.name()), "keyspace removed"));
                }
            }
        }

        private void keyspace(KeyspaceConf was, KeyspaceConf is) throws ConfigurationException {
            children(KeyspaceSettings.ALL, ElementPath.keyspace(is.name()), was, is);
            for (ColumnFamilyConf cf : is.columnFamilies()) {
                Optional<ColumnFamilyConf> old = was.columnFamily(cf.name());
                if (old.isEmpty()) {
                    changes.add(new ConfigChange(ElementPath.columnFamily(is.name(), cf.name()), "new "
                            + cf.type().wireName() + " column family, CompareWith " + ClassNames.shortName(cf.compareWith())
                            + (cf.isSuper() ? ", CompareSubcolumnsWith " + ClassNames.shortName(cf.compareSubcolumnsWith())
                            : "")));
                } else {
                    children(ColumnFamilySettings.ALL, ElementPath.columnFamily(is.name(), cf.name()), old.get(),
                            cf);
                }
            }
            for (ColumnFamilyConf cf : was.columnFamilies()) {
                if (is.columnFamily(cf.name()).isEmpty()) {
                    changes.add(new ConfigChange(ElementPath.columnFamily(is.name(), cf.name()),
                            "column family removed"));
                }
            }
        }

        /** Each child as its declaration says: refused, applied live, or compared part by part by the caller. */
        <C> void children(List<ChildSetting<C, ?>> settings, String parent, C was, C is)
                throws ConfigurationException {
            for (ChildSetting<C, ?> setting : settings) {
                if (!setting.differs(was, is)) continue;
                switch (setting.onReload()) {
                    case REFUSED, RESTART -> throw refusal(setting.path(parent),
                            setting.change(was, is) + "; " + setting.reason());
                    case LIVE -> changes.add(new ConfigChange(setting.path(parent), setting.change(was, is)));
                    case KEY, BY_PART -> { }
                }
            }
        }

        void cluster() throws ConfigurationException {
            Optional<ClusterConf> was = before.cluster();
            Optional<ClusterConf> is = after.cluster();
            String element = ElementPath.global("Cluster");
            if (was.isPresent() != is.isPresent()) {
                throw refusal(element, (is.isPresent() ? "added" : "removed") + "; " + CLUSTER_MODE);
            }
            if (was.isEmpty()) return;
            ClusterConf a = was.get();
            ClusterConf b = is.get();
            children(ClusterSettings.ALL, element, a, b);
            // A keyspace new in this file may bring its replication along: it is created with it.
            for (KeyspaceConf ks : before.keyspaces()) {
                if (after.keyspace(ks.name()).isEmpty()) continue;
                Map<String, Integer> dcWas = a.datacenterReplication(ks.name()).orElse(null);
                Map<String, Integer> dcIs = b.datacenterReplication(ks.name()).orElse(null);
                refuseChange(element + "/DatacenterReplication[@Keyspace='" + ks.name() + "']", dcWas, dcIs,
                        CLUSTER_REPLICATION);
            }
        }
    }

    /** {@code changed from X to Y}, or how an element appeared or went away. */
    static String changed(Object was, Object is) {
        if (was == null) return "set to " + show(is) + " (was not set)";
        if (is == null) return "no longer set (was " + show(was) + ")";
        return "changed from " + show(was) + " to " + show(is);
    }

    private static String show(Object value) {
        if ("".equals(value)) return "''";
        if (value instanceof Double d) return BigDecimal.valueOf(d).stripTrailingZeros().toPlainString();
        if (value instanceof List<?> list) {
            if (list.isEmpty()) return "none";
            return String.join(", ", list.stream().map(ConfigDiff::show).toList());
        }
        return String.valueOf(value);
    }
}

package sibyl.commitlog;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import sibyl.db.CFMetaData;
import sibyl.db.KSMetaData;
import sibyl.db.SystemKeyspace;

/**
 * The numbers Cassandra 0.6 gave its column families, which its commit log headers use.
 *
 * <p>0.6 numbered them from 0 at start-up by walking its keyspaces (a {@code HashMap} by name,
 * into which the configured keyspaces went in file order and then {@code system}) and, within each,
 * its column families (a {@code HashMap} by name, filled in file order; {@code system}'s are
 * LocationInfo then HintsColumnFamily). So the numbers follow the JVM's hash map order, which
 * changed between Java 7 and 8 (see {@link JavaHashMapOrder}), and they are only those of the
 * log's writer if the configuration is still the one it ran with.
 */
final class LegacyColumnFamilyIds {
    /**
     * One way the column families may have been numbered.
     *
     * @param jvms the JVM releases that number them so, for log lines
     * @param byId the column family of each id
     */
    record Numbering(String jvms, List<ColumnFamilyId> byId) {
        Numbering {
            byId = List.copyOf(byId);
        }

        int count() {
            return byId.size();
        }

        OptionalInt idOf(ColumnFamilyId cf) {
            int id = byId.indexOf(cf);
            return id < 0 ? OptionalInt.empty() : OptionalInt.of(id);
        }
    }

    private LegacyColumnFamilyIds() {
    }

    /**
     * The distinct numberings the configured column families may have had, one per hash map order
     * that gives a different one (with small configurations all orders may agree).
     *
     * @param keyspaces in configuration file order, {@code system} included (anywhere: 0.6 put it last)
     */
    static List<Numbering> candidates(List<KSMetaData> keyspaces) {
        Map<List<ColumnFamilyId>, List<JavaHashMapOrder>> byNumbering = new LinkedHashMap<>();
        for (JavaHashMapOrder order : JavaHashMapOrder.values()) {
            byNumbering.computeIfAbsent(number(keyspaces, order), k -> new ArrayList<>()).add(order);
        }
        List<Numbering> candidates = new ArrayList<>();
        byNumbering.forEach((byId, orders) -> candidates.add(new Numbering(jvms(orders), byId)));
        return candidates;
    }

    /** The JVMs whose hash maps give one numbering, in a few words. */
    private static String jvms(List<JavaHashMapOrder> orders) {
        if (orders.size() == JavaHashMapOrder.values().length) return "every JVM";
        if (orders.equals(List.of(JavaHashMapOrder.JAVA_6, JavaHashMapOrder.JAVA_7))) return "Java 6 or 7";
        return String.join(" or ", orders.stream().map(JavaHashMapOrder::jvms).toList());
    }

    /** The numbering one hash map order gives. */
    static List<ColumnFamilyId> number(List<KSMetaData> keyspaces, JavaHashMapOrder order) {
        Map<String, KSMetaData> byName = new HashMap<>();
        List<String> keyspaceNames = new ArrayList<>();
        KSMetaData system = null;
        for (KSMetaData ks : keyspaces) {
            if (ks.name().equals(SystemKeyspace.NAME)) {
                system = ks;
            } else {
                keyspaceNames.add(ks.name());
                byName.put(ks.name(), ks);
            }
        }
        if (system == null) system = SystemKeyspace.metadata();
        keyspaceNames.add(system.name());
        byName.put(system.name(), system);

        List<ColumnFamilyId> byId = new ArrayList<>();
        for (String ks : order.iterationOrder(keyspaceNames)) {
            List<String> cfNames = new ArrayList<>();
            for (CFMetaData cf : byName.get(ks).columnFamilies()) cfNames.add(cf.name());
            for (String cf : order.iterationOrder(cfNames)) byId.add(new ColumnFamilyId(ks, cf));
        }
        return byId;
    }
}

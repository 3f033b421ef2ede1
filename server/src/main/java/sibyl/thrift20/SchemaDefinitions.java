package sibyl.thrift20;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import sibyl.db.CFMetaData;
import sibyl.db.KSMetaData;
import sibyl.db.SystemKeyspace;
import sibyl.iface.v20.CfDef;
import sibyl.iface.v20.InvalidRequestException;
import sibyl.iface.v20.KsDef;
import sibyl.service.Schema;

/**
 * The answers of describe_keyspaces and describe_keyspace, and the schema's version, computed once from one
 * schema: each keyspace as a KsDef with the fields Cassandra 3.11 fills that Sibyl knows (docs/thrift-api-0.7.md
 * §What Sibyl serves today). A keyspace replicates as SimpleStrategy with its ReplicationFactor; {@code system} is
 * the node's own (LocalStrategy).
 */
final class SchemaDefinitions {
    private static final String SIMPLE_STRATEGY = "org.apache.cassandra.locator.SimpleStrategy";
    private static final String LOCAL_STRATEGY = "org.apache.cassandra.locator.LocalStrategy";

    private final Map<String, KsDef> keyspaces = new LinkedHashMap<>();
    private final String version;

    SchemaDefinitions(Schema schema) {
        for (KSMetaData ks : schema.keyspaces()) keyspaces.put(ks.name(), define(ks));
        // A version that changes with the schema and only with it: from the definitions' own text.
        this.version = UUID.nameUUIDFromBytes(keyspaces.values().toString().getBytes(StandardCharsets.UTF_8))
                .toString();
    }

    /** Every keyspace, in configuration order; copies, which the caller may change. */
    List<KsDef> all() {
        List<KsDef> defs = new ArrayList<>(keyspaces.size());
        for (KsDef ks : keyspaces.values()) defs.add(ks.deepCopy());
        return defs;
    }

    /** The keyspace's definition (a copy), or null when there is none of that name. */
    KsDef keyspace(String name) {
        KsDef ks = keyspaces.get(name);
        return ks == null ? null : ks.deepCopy();
    }

    /** The schema's version, as describe_schema_versions names it: a UUID. */
    String version() {
        return version;
    }

    private static KsDef define(KSMetaData ks) {
        List<CfDef> tables = new ArrayList<>();
        for (CFMetaData cf : ks.columnFamilies()) tables.add(define(cf));
        boolean local = SystemKeyspace.NAME.equals(ks.name());
        KsDef def = new KsDef(ks.name(), local ? LOCAL_STRATEGY : SIMPLE_STRATEGY, tables);
        Map<String, String> options = new LinkedHashMap<>();
        if (!local) options.put("replication_factor", Integer.toString(ks.replicationFactor()));
        def.setStrategy_options(options);
        def.setDurable_writes(true);
        return def;
    }

    private static CfDef define(CFMetaData cf) {
        CfDef def = new CfDef(cf.keyspace(), cf.name());
        def.setColumn_type(cf.columnType());
        def.setComparator_type(cf.comparator().className());
        if (cf.isSuper()) def.setSubcomparator_type(cf.subcomparator().className());
        if (cf.comment() != null) def.setComment(cf.comment());
        ValidatorDefs.describe(cf, def);
        // 3.11 numbers a table by its UUID; a 0.7-era client wants an int, stable for the table's name.
        def.setId((cf.keyspace() + "." + cf.name()).hashCode());
        cf.gcGraceSeconds().ifPresent(def::setGc_grace_seconds);
        describeTimeToLive(cf, def);
        return def;
    }

    // ---- default_time_to_live (CfDef field 40), both ways: the one place it maps

    /** Sets the CfDef's default_time_to_live from the table's DefaultTimeToLive; 3.11 always sets it, 0 for none. */
    static void describeTimeToLive(CFMetaData cf, CfDef def) {
        def.setDefault_time_to_live(cf.defaultTimeToLive());
    }

    /**
     * {@code cf} with the default_time_to_live a CfDef from a client asks for (unchanged when it has none), refused in
     * 3.11's words when out of its range; for the schema calls that take a CfDef.
     */
    static CFMetaData withTimeToLiveOf(CFMetaData cf, CfDef def) throws InvalidRequestException {
        if (!def.isSetDefault_time_to_live()) return cf;
        int ttl = def.getDefault_time_to_live();
        if (ttl < 0) {
            throw new InvalidRequestException("default_time_to_live must be greater than or equal to 0 (got " + ttl + ")");
        }
        if (ttl > CFMetaData.MAX_TTL) {
            throw new InvalidRequestException("default_time_to_live must be less than or equal to " + CFMetaData.MAX_TTL
                    + " (got " + ttl + ")");
        }
        return cf.withDefaultTimeToLive(ttl);
    }
}

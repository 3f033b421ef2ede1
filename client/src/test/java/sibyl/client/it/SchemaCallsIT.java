package sibyl.client.it;

import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.thrift.TException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.iface.v20.CfDef;
import sibyl.iface.v20.Cassandra;
import sibyl.iface.v20.KsDef;

/**
 * The schema calls of the 0.7+ dialect (system_add/drop/update_keyspace and _column_family) made the same way on a
 * real Cassandra 3.11 and on Sibyl, one after another, each answer compared: the new schema version (as "a version"),
 * or the refusal's class and text. The keyspaces are made by API on both; the differences documented in
 * docs/differences.md §The 0.7+ dialect (refused fields, keyspaces of storage-conf.xml) are left to the server's
 * socket tests.
 */
class SchemaCallsIT {
    private static final String KS = "SchemaCalls";
    private static final Pattern VERSION = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

    private interface Step {
        String run(Cassandra.Client client) throws TException;
    }

    private record Case(String description, Step step) {
    }

    @Test
    void schemaCallsAnswerAsCassandra311(@TempDir Path dir) throws Exception {
        Cassandra311Peer c311 = Cassandra311Peer.shared();
        LocalNode sibyl = LocalNode.configuredBy(dir, Diff07Schema.storageConf(
                Files.readString(LocalNode.home().resolve("conf/storage-conf.xml"))));
        sibyl.start("sibyl");
        List<String> differences = new ArrayList<>();
        try {
            Cassandra.Client reference = c311.client();
            Cassandra.Client subject = Cassandra311Peer.framedClient(thriftPort(dir));
            try {
                dropIfThere(reference, KS);
                for (Case c : cases()) {
                    String expected = answer(c, reference);
                    String actual = answer(c, subject);
                    System.out.println("SchemaCallsIT: " + c.description() + "\n  3.11:  " + expected + "\n  Sibyl: " + actual);
                    if (!expected.equals(actual)) differences.add(c.description() + ": 3.11 " + expected + ", Sibyl " + actual);
                }
            } finally {
                Cassandra311Peer.close(reference);
                Cassandra311Peer.close(subject);
            }
        } finally {
            sibyl.stop();
        }
        if (!differences.isEmpty()) fail(differences.size() + " answers differ:\n" + String.join("\n", differences));
    }

    private static String answer(Case c, Cassandra.Client client) throws TException {
        try {
            String answer = c.step().run(client);
            return answer != null && VERSION.matcher(answer).matches() ? "a version" : String.valueOf(answer);
        } catch (org.apache.thrift.transport.TTransportException e) {
            throw e;
        } catch (TException e) {
            String why = e instanceof sibyl.iface.v20.InvalidRequestException ire ? ire.getWhy() : e.getMessage();
            return "!" + e.getClass().getSimpleName() + ": " + why;
        }
    }

    private static List<Case> cases() {
        List<Case> cases = new ArrayList<>();
        cases.add(new Case("add keyspace", c -> c.system_add_keyspace(ks(KS, std(KS, "Std1", "BytesType")))));
        cases.add(new Case("add the same keyspace again", c -> c.system_add_keyspace(ks(KS))));
        cases.add(new Case("add keyspace system", c -> c.system_add_keyspace(ks("system"))));
        cases.add(new Case("add keyspace with a bad name", c -> c.system_add_keyspace(ks("bad-name"))));
        cases.add(new Case("add keyspace with a long name",
                c -> c.system_add_keyspace(ks("K234567890123456789012345678901234567890123456789"))));
        cases.add(new Case("add keyspace whose CfDef names another keyspace",
                c -> c.system_add_keyspace(ks("SchemaOther", std("Elsewhere", "Std1", "BytesType")))));
        cases.add(new Case("add keyspace with an unknown comparator",
                c -> c.system_add_keyspace(ks("SchemaOther", std("SchemaOther", "Std1", "NoSuchType")))));
        cases.add(new Case("add keyspace with an unknown strategy", c -> c.system_add_keyspace(
                new KsDef("SchemaOther", "NoSuchStrategy", List.of()).setStrategy_options(Map.of("replication_factor", "1")))));
        cases.add(new Case("add keyspace SimpleStrategy without replication_factor", c -> c.system_add_keyspace(
                new KsDef("SchemaOther", "SimpleStrategy", List.of()))));
        cases.add(new Case("describe the keyspace made", c -> describe(c, KS)));
        cases.add(new Case("set_keyspace", c -> {
            c.set_keyspace(KS);
            return "ok";
        }));
        cases.add(new Case("add column family", c -> c.system_add_column_family(std(KS, "Std2", "UTF8Type")
                .setComment("made by API").setGc_grace_seconds(3600))));
        cases.add(new Case("add super column family", c -> c.system_add_column_family(std(KS, "Super2", "LongType")
                .setColumn_type("Super").setSubcomparator_type("TimeUUIDType"))));
        cases.add(new Case("add super column family without subcomparator", c -> c.system_add_column_family(
                std(KS, "Super3", "BytesType").setColumn_type("Super"))));
        cases.add(new Case("add the same column family again", c -> c.system_add_column_family(std(KS, "Std2", "UTF8Type"))));
        cases.add(new Case("add column family to a missing keyspace", c -> c.system_add_column_family(std("NoSuchKs", "Std1", "BytesType"))));
        cases.add(new Case("add column family with an unknown column_type", c -> c.system_add_column_family(
                std(KS, "Odd", "BytesType").setColumn_type("Bogus"))));
        cases.add(new Case("add column family with a bad name", c -> c.system_add_column_family(std(KS, "bad name", "BytesType"))));
        cases.add(new Case("add column family with an unknown comparator", c -> c.system_add_column_family(std(KS, "Odd", "NoSuchType"))));
        cases.add(new Case("describe after adds", c -> describe(c, KS)));
        cases.add(new Case("update column family: comment and gc_grace", c -> c.system_update_column_family(
                std(KS, "Std2", "UTF8Type").setComment("changed").setGc_grace_seconds(60))));
        cases.add(new Case("update a missing column family", c -> c.system_update_column_family(std(KS, "NoSuchCf", "BytesType"))));
        cases.add(new Case("update column family of a missing keyspace", c -> c.system_update_column_family(std("NoSuchKs", "Std1", "BytesType"))));
        cases.add(new Case("describe after update", c -> describe(c, KS)));
        cases.add(new Case("update keyspace with cf_defs", c -> c.system_update_keyspace(ks(KS, std(KS, "Std9", "BytesType")))));
        cases.add(new Case("update a missing keyspace", c -> c.system_update_keyspace(ks("NoSuchKs"))));
        cases.add(new Case("update keyspace system", c -> c.system_update_keyspace(ks("system"))));
        cases.add(new Case("update keyspace: replication_factor 2", c -> c.system_update_keyspace(
                ks(KS).setStrategy_options(Map.of("replication_factor", "2")))));
        cases.add(new Case("describe after keyspace update", c -> describe(c, KS)));
        cases.add(new Case("drop a missing column family", c -> c.system_drop_column_family("NoSuchCf")));
        cases.add(new Case("drop column family", c -> c.system_drop_column_family("Std2")));
        cases.add(new Case("drop it again", c -> c.system_drop_column_family("Std2")));
        cases.add(new Case("describe after drop", c -> describe(c, KS)));
        cases.add(new Case("drop a missing keyspace", c -> c.system_drop_keyspace("NoSuchKs")));
        cases.add(new Case("drop keyspace system", c -> c.system_drop_keyspace("system")));
        cases.add(new Case("drop keyspace", c -> c.system_drop_keyspace(KS)));
        cases.add(new Case("drop column family after its keyspace went", c -> c.system_drop_column_family("Std1")));
        cases.add(new Case("schema versions", c -> c.describe_schema_versions().size() + " version(s)"));
        return cases;
    }

    private static String describe(Cassandra.Client c, String keyspace) throws TException {
        KsDef ks = c.describe_keyspace(keyspace);
        StringBuilder s = new StringBuilder(ks.getName() + " " + ks.getStrategy_class() + " " + ks.getStrategy_options() + " [");
        ks.getCf_defs().stream().sorted((a, b) -> a.getName().compareTo(b.getName())).forEach(cf -> s.append(cf.getName())
                .append(' ').append(cf.getColumn_type()).append(' ').append(cf.getComparator_type()).append(' ')
                .append(cf.getSubcomparator_type()).append(" gc=").append(cf.getGc_grace_seconds()).append(" comment=")
                .append(cf.getComment()).append("; "));
        return s.append(']').toString();
    }

    private static KsDef ks(String name, CfDef... families) {
        return new KsDef(name, "org.apache.cassandra.locator.SimpleStrategy", List.of(families))
                .setStrategy_options(Map.of("replication_factor", "1"));
    }

    private static CfDef std(String keyspace, String name, String comparator) {
        return new CfDef(keyspace, name).setComparator_type(comparator);
    }

    private static void dropIfThere(Cassandra.Client client, String keyspace) throws TException {
        try {
            client.describe_keyspace(keyspace);
            client.system_drop_keyspace(keyspace);
        } catch (sibyl.iface.v20.NotFoundException absent) {
            // a fresh node
        }
    }

    private static int thriftPort(Path dir) throws java.io.IOException {
        Matcher m = Pattern.compile("<ThriftPort>(\\d+)</ThriftPort>").matcher(Files.readString(dir.resolve("conf/storage-conf.xml")));
        if (!m.find()) throw new IllegalStateException("no ThriftPort in " + dir);
        return m.group(1) == null ? -1 : Integer.parseInt(m.group(1));
    }
}

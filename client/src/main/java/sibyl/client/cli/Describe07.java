package sibyl.client.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import sibyl.iface.v20.CfDef;
import sibyl.iface.v20.ColumnDef;
import sibyl.iface.v20.KsDef;

/** Prints a keyspace's definition as the 0.7–1.2 cli's describe and show keyspaces laid it out. */
final class Describe07 {

    private Describe07() {
    }

    static void print(KsDef ks, PrintStream out) {
        out.println("Keyspace: " + ks.getName() + ":");
        out.println("  Replication Strategy: " + ks.getStrategy_class());
        out.println("  Durable Writes: " + (!ks.isSetDurable_writes() || ks.isDurable_writes()));
        out.println("    Options: " + options(ks.getStrategy_options()));
        out.println("  Column Families:");
        List<CfDef> cfs = new ArrayList<>(ks.getCf_defs());
        cfs.sort(Comparator.comparing(CfDef::getName));
        for (CfDef cf : cfs) {
            printColumnFamily(cf, out);
        }
    }

    private static void printColumnFamily(CfDef cf, PrintStream out) {
        boolean isSuper = "Super".equalsIgnoreCase(cf.getColumn_type());
        out.println("    ColumnFamily: " + cf.getName() + (isSuper ? " (Super)" : ""));
        if (cf.getComment() != null && !cf.getComment().isEmpty()) {
            out.println("    \"" + cf.getComment() + "\"");
        }
        out.println("      Key Validation Class: " + orBytes(cf.getKey_validation_class()));
        out.println("      Default column value validator: " + orBytes(cf.getDefault_validation_class()));
        out.println("      Columns sorted by: " + orBytes(cf.getComparator_type())
                + (isSuper ? "/" + orBytes(cf.getSubcomparator_type()) : ""));
        line(out, "GC grace seconds", cf.isSetGc_grace_seconds(), cf.getGc_grace_seconds());
        if (cf.isSetMin_compaction_threshold() || cf.isSetMax_compaction_threshold()) {
            out.println("      Compaction min/max thresholds: " + cf.getMin_compaction_threshold() + "/"
                    + cf.getMax_compaction_threshold());
        }
        line(out, "Read repair chance", cf.isSetRead_repair_chance(), cf.getRead_repair_chance());
        line(out, "DC Local Read repair chance", cf.isSetDclocal_read_repair_chance(),
                cf.getDclocal_read_repair_chance());
        line(out, "Caching", cf.isSetCaching(), cf.getCaching());
        line(out, "Default time to live", cf.isSetDefault_time_to_live(), cf.getDefault_time_to_live());
        out.println("      Bloom Filter FP chance: "
                + (cf.isSetBloom_filter_fp_chance() ? cf.getBloom_filter_fp_chance() : "default"));
        if (cf.getColumn_metadata() != null && !cf.getColumn_metadata().isEmpty()) {
            CliType names = CliType.of(isSuper ? cf.getSubcomparator_type() : cf.getComparator_type());
            out.println("      Column Metadata:");
            for (ColumnDef d : cf.getColumn_metadata()) {
                out.println("        Column Name: " + names.format(d.getName()));
                out.println("          Validation Class: " + d.getValidation_class());
                if (d.isSetIndex_name()) {
                    out.println("          Index Name: " + d.getIndex_name());
                }
                if (d.isSetIndex_type()) {
                    out.println("          Index Type: " + d.getIndex_type().name());
                }
            }
        }
        line(out, "Compaction Strategy", cf.isSetCompaction_strategy(), cf.getCompaction_strategy());
        if (cf.getCompaction_strategy_options() != null && !cf.getCompaction_strategy_options().isEmpty()) {
            out.println("      Compaction Strategy Options:");
            new TreeMap<>(cf.getCompaction_strategy_options()).forEach((k, v) -> out.println("        " + k + ": " + v));
        }
        if (cf.getCompression_options() != null && !cf.getCompression_options().isEmpty()) {
            out.println("      Compression Options:");
            new TreeMap<>(cf.getCompression_options()).forEach((k, v) -> out.println("        " + k + ": " + v));
        }
    }

    private static void line(PrintStream out, String label, boolean isSet, Object value) {
        if (isSet) {
            out.println("      " + label + ": " + value);
        }
    }

    private static String orBytes(String className) {
        return className == null ? "org.apache.cassandra.db.marshal.BytesType" : className;
    }

    /** {@code [k1:v1, k2:v2]}, sorted by name. */
    private static String options(Map<String, String> options) {
        List<String> parts = new ArrayList<>();
        if (options != null) {
            new TreeMap<>(options).forEach((k, v) -> parts.add(k + ":" + v));
        }
        return "[" + String.join(", ", parts) + "]";
    }
}

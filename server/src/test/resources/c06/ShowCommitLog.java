/*
 * Prints a Cassandra 0.6 commit log segment as 0.6 itself reads it: the header (dirty column family ids and the
 * replay position of each), then every entry with its offsets and its RowMutation (hex names and values).
 * Runs with 0.6.5's own classes (their RowMutation deserializer); a look-at tool for the fixtures, not used by
 * any test. Usage (the conf dir must hold the storage-conf.xml the segment was written under, e.g. a fixture's;
 * 0.6 creates its data directories when it loads it, so point them somewhere harmless, as make-fixtures.sh's
 * show_commitlog does):
 *   java -cp "$BASE/classes:$BASE/src/lib/*" -Dstorage-config=CONFDIR ShowCommitLog.java SEGMENT [all] [columns]
 *   java -cp ... -Dstorage-config=CONFDIR ShowCommitLog.java ids       (the column family ids, as 0.6 numbers them)
 * Without "all", runs of entries that 0.6.5 replays nothing of are summarised in one line; "columns" prints the
 * columns of each entry (values longer than 32 bytes shortened).
 */
import org.apache.cassandra.config.DatabaseDescriptor;
import org.apache.cassandra.db.*;

import java.io.*;
import java.nio.file.*;
import java.util.*;
import java.util.zip.CRC32;

public class ShowCommitLog {
    static String hex(byte[] b) {
        StringBuilder s = new StringBuilder();
        for (byte x : b) s.append(String.format("%02x", x));
        return s.toString();
    }

    public static void main(String[] args) throws Exception {
        try { show(args); } finally { System.out.flush(); System.exit(0); } // 0.6's static initialisers start threads
    }

    static void show(String[] args) throws Exception {
        // loading storage-conf.xml numbers the column families (DatabaseDescriptor.storeMetadata)
        Map<Integer, String> ids = new TreeMap<>();
        for (String t : DatabaseDescriptor.getTables())
            for (String cf : DatabaseDescriptor.getTableMetaData(t).keySet()) ids.put(cfId(t, cf), t + "." + cf);
        if (args[0].equals("ids")) { for (Map.Entry<Integer, String> e : ids.entrySet()) System.out.println(e.getKey() + " " + e.getValue()); return; }
        byte[] all = Files.readAllBytes(Paths.get(args[0]));
        boolean showAll = Arrays.asList(args).contains("all"), details = Arrays.asList(args).contains("columns");
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(all));
        int hlen = (int) in.readLong();
        byte[] h = new byte[hlen];
        in.readFully(h);
        DataInputStream hin = new DataInputStream(new ByteArrayInputStream(h));
        BitSet dirty = (BitSet) new ObjectInputStream(hin).readObject();
        int n = hin.readInt();
        int[] pos = new int[n];
        for (int i = 0; i < n; i++) pos[i] = hin.readInt();
        System.out.println(args[0] + ": " + all.length + " bytes; header " + (8 + hlen) + " bytes (java.util.BitSet by ObjectOutputStream + "
                + n + " int positions)");
        int low = Integer.MAX_VALUE;
        for (int i = 0; i < n; i++) {
            System.out.println(String.format("  cf id %2d %-30s %s position %d", i, ids.getOrDefault(i, "?"), dirty.get(i) ? "DIRTY" : "clean", pos[i]));
            if (pos[i] > 0 && pos[i] < low) low = pos[i];
        }
        System.out.println("  replay starts at " + (low == Integer.MAX_VALUE ? "nothing (lowest position 0)" : low));
        int off = 8 + hlen, skipped = 0;
        while (off + 8 <= all.length) {
            in = new DataInputStream(new ByteArrayInputStream(all, off, all.length - off));
            long len = in.readLong();
            if (len <= 0 || off + 16 + len > all.length) { System.out.println("  @" + off + ": end (length " + len + ")"); break; }
            byte[] e = new byte[(int) len];
            in.readFully(e);
            long crc = in.readLong();
            CRC32 c = new CRC32(); c.update(e);
            int end = off + 16 + (int) len;
            RowMutation rm = RowMutation.serializer().deserialize(new DataInputStream(new ByteArrayInputStream(e)));
            StringBuilder line = new StringBuilder("  @" + off + "-" + end + (crc == c.getValue() ? "" : " BAD-CRC") + " " + rm.getTable() + " key=" + hex(rm.key().getBytes("UTF-8")));
            StringBuilder detail = new StringBuilder();
            for (ColumnFamily cf : rm.getColumnFamilies()) {
                int id = cfId(rm.getTable(), cf.name());
                String replay = !dirty.get(id) ? "skip:clean" : end < pos[id] ? "skip:before-position" : "replay";
                int cols = 0, dels = 0, scs = 0, scdels = 0;
                for (IColumn col : cf.getSortedColumns()) {
                    if (col instanceof SuperColumn sc) {
                        scs++; if (sc.isMarkedForDelete()) scdels++;
                        detail.append("      S ").append(hex(sc.name())).append(sc.isMarkedForDelete() ? " deleted at " + sc.getMarkedForDeleteAt() + " (local " + sc.getLocalDeletionTime() + ")" : "").append('\n');
                        for (IColumn sub : sc.getSubColumns()) { if (sub.isMarkedForDelete()) dels++; else cols++; detail.append("        ").append(col(sub)).append('\n'); }
                    } else { if (col.isMarkedForDelete()) dels++; else cols++; detail.append("      ").append(col(col)).append('\n'); }
                }
                line.append(" | ").append(cf.name()).append(" id ").append(id).append(' ').append(replay);
                if (cf.isMarkedForDelete()) line.append(" row-deleted@").append(cf.getMarkedForDeleteAt());
                if (scs > 0) line.append(" supers=").append(scs).append(scdels > 0 ? " (" + scdels + " deleted)" : "");
                if (cols > 0) line.append(" columns=").append(cols);
                if (dels > 0) line.append(" tombstones=").append(dels);
            }
            boolean replayed = line.indexOf(" replay") >= 0;
            if (!showAll && !replayed) { skipped++; off = end; continue; }
            if (skipped > 0) { System.out.println("  (" + skipped + " entries replaying nothing: their CFs clean or before their position)"); skipped = 0; }
            System.out.println(line);
            if (details) System.out.print(detail);
            off = end;
        }
        if (skipped > 0) System.out.println("  (" + skipped + " entries replaying nothing: their CFs clean or before their position)");
    }

    static int cfId(String table, String cf) throws Exception {
        java.lang.reflect.Method m = Table.TableMetadata.class.getDeclaredMethod("getColumnFamilyId", String.class);
        m.setAccessible(true);
        return (Integer) m.invoke(Table.TableMetadata.instance(table), cf);
    }

    static String col(IColumn c) {
        String v = c.value().length <= 32 ? hex(c.value()) : hex(Arrays.copyOf(c.value(), 16)) + "...(" + c.value().length + " bytes)";
        return (c.isMarkedForDelete() ? "D " : "C ") + hex(c.name()) + " " + v + " " + c.timestamp();
    }
}

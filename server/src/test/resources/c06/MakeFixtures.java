/*
 * Drives a real Apache Cassandra 0.6.5 node (started by make-fixtures.sh through peer-c06.sh) through the
 * phases of one fixture and records the expected answers read back from it.
 *
 * Not part of Sibyl's build: it is run by hand with Java 17's source launcher, against the Thrift classes of
 * the 0.6 build that peer-c06.sh made (classpath $BASE/classes + $BASE/src/lib/*.jar), e.g.
 *   java -cp "$BASE/classes:$BASE/src/lib/*" MakeFixtures.java random-killed 9281 OUTDIR
 * make-fixtures.sh is the way to run it (it writes the node's configuration, starts and stops the node and
 * copies the files); see README.md.
 *
 * Everything written is deterministic (seeded java.util.Random, client timestamps from a fixed clock in
 * microseconds from 2010-09-20); only what 0.6 chooses itself differs between runs (its token, the local
 * deletion times of tombstones, file names of commit log segments).
 */
import org.apache.cassandra.thrift.*;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;

import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import java.io.*;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.util.*;

public class MakeFixtures {

    // ---------------------------------------------------------------- column families

    record CF(String ks, String name, boolean sup, String cmp, String sub) {
        String id() { return ks + "." + name; }
    }

    static final List<CF> CFS = new ArrayList<>();

    static CF cf(String ks, String name, String cmp) { CF c = new CF(ks, name, false, cmp, null); CFS.add(c); return c; }
    static CF sup(String ks, String name, String cmp, String sub) { CF c = new CF(ks, name, true, cmp, sub); CFS.add(c); return c; }

    // ---------------------------------------------------------------- connection

    static Cassandra.Client client;
    static int thriftPort, jmxPort;
    static String nodeDir, peer;
    static Random rnd;
    static MBeanServerConnection jmx;
    static final ConsistencyLevel CL = ConsistencyLevel.ONE;

    static void connect() throws Exception {
        TSocket s = new TSocket("127.0.0.1", thriftPort);
        s.open();
        client = new Cassandra.Client(new TBinaryProtocol(s));
        jmx = JMXConnectorFactory.connect(new JMXServiceURL(
                "service:jmx:rmi:///jndi/rmi://127.0.0.1:" + jmxPort + "/jmxrmi")).getMBeanServerConnection();
    }

    // ---------------------------------------------------------------- clock

    /** Client timestamps in microseconds, strictly increasing from 2010-09-20 20:26:40 UTC. */
    static long clock = 1285014400000000L;
    static long now() { return clock += 1 + rnd.nextInt(5); }

    // ---------------------------------------------------------------- model (only to choose targets)

    /** For a standard CF: name -> timestamp. For a super CF: super name -> (sub name -> timestamp). Names as hex. */
    static final Map<CF, LinkedHashMap<String, LinkedHashMap<String, Object>>> model = new HashMap<>();

    static LinkedHashMap<String, LinkedHashMap<String, Object>> rows(CF cf) { return model.computeIfAbsent(cf, k -> new LinkedHashMap<>()); }

    @SuppressWarnings("unchecked")
    static LinkedHashMap<String, Object> sub(Object o) { return (LinkedHashMap<String, Object>) o; }

    static void note(CF cf, String key, byte[] sc, byte[] name, long ts) {
        LinkedHashMap<String, Object> row = rows(cf).computeIfAbsent(key, k -> new LinkedHashMap<>());
        if (cf.sup) sub(row.computeIfAbsent(hex(sc), k -> new LinkedHashMap<String, Object>())).put(hex(name), ts);
        else row.put(hex(name), ts);
    }

    static void forget(CF cf, String key, byte[] sc, byte[] name) {
        LinkedHashMap<String, Object> row = rows(cf).get(key);
        if (row == null) return;
        if (sc == null && name == null) { rows(cf).remove(key); return; }
        if (cf.sup) {
            if (name == null) row.remove(hex(sc));
            else { Object s = row.get(hex(sc)); if (s != null) sub(s).remove(hex(name)); }
        } else row.remove(hex(name));
    }

    static <T> T pick(List<T> l) { return l.get(rnd.nextInt(l.size())); }

    static String pickKey(CF cf) {
        List<String> ks = new ArrayList<>();
        for (Map.Entry<String, LinkedHashMap<String, Object>> e : rows(cf).entrySet())
            if (!e.getValue().isEmpty() && !e.getKey().startsWith("wide")) ks.add(e.getKey());
        return pick(ks);
    }

    /** A key whose row (or one of whose super columns, for super CFs) has at least two columns with different timestamps. */
    static String pickKeyMulti(CF cf) {
        List<String> ks = new ArrayList<>();
        for (Map.Entry<String, LinkedHashMap<String, Object>> e : rows(cf).entrySet()) {
            if (e.getKey().startsWith("wide")) continue;
            if (!cf.sup && e.getValue().size() >= 2) ks.add(e.getKey());
            if (cf.sup) for (Object s : e.getValue().values()) if (sub(s).size() >= 2) { ks.add(e.getKey()); break; }
        }
        return ks.isEmpty() ? pickKey(cf) : pick(ks);
    }

    static String pickSuper(CF cf, String key) { return pick(new ArrayList<>(rows(cf).get(key).keySet())); }

    static String pickSuperMulti(CF cf, String key) {
        List<String> l = new ArrayList<>();
        for (Map.Entry<String, Object> e : rows(cf).get(key).entrySet()) if (sub(e.getValue()).size() >= 2) l.add(e.getKey());
        return l.isEmpty() ? pickSuper(cf, key) : pick(l);
    }

    /** A [super, name] (super null for standard CFs) of an existing column, with its timestamp. */
    static Object[] pickColumn(CF cf, String key) {
        LinkedHashMap<String, Object> row = rows(cf).get(key);
        if (!cf.sup) { String n = pick(new ArrayList<>(row.keySet())); return new Object[]{null, unhex(n), (Long) row.get(n)}; }
        List<String> scs = new ArrayList<>();
        for (Map.Entry<String, Object> e : row.entrySet()) if (!sub(e.getValue()).isEmpty()) scs.add(e.getKey());
        if (scs.isEmpty()) return null;
        String sc = pick(scs);
        String n = pick(new ArrayList<>(sub(row.get(sc)).keySet()));
        return new Object[]{unhex(sc), unhex(n), (Long) sub(row.get(sc)).get(n)};
    }

    // ---------------------------------------------------------------- writes

    static String batchKs;
    static final LinkedHashMap<String, Map<String, List<Mutation>>> batch = new LinkedHashMap<>();
    static int batchOps;
    static int ops;

    static void mut(CF cf, String key, Mutation m) throws Exception {
        if (batchKs != null && !batchKs.equals(cf.ks)) flushBatch();
        batchKs = cf.ks;
        batch.computeIfAbsent(key, k -> new LinkedHashMap<>()).computeIfAbsent(cf.name, k -> new ArrayList<>()).add(m);
        if (++batchOps >= 40) flushBatch();
    }

    static void flushBatch() throws Exception {
        if (batch.isEmpty()) return;
        client.batch_mutate(batchKs, new LinkedHashMap<>(batch), CL);
        ops++;
        batch.clear();
        batchOps = 0;
        batchKs = null;
    }

    /** Insert one column (or subcolumn), through insert() or a batch_mutate. */
    static void put(CF cf, String key, byte[] sc, byte[] name, byte[] value, long ts, boolean viaBatch) throws Exception {
        if (viaBatch) {
            Column c = new Column(name, value, ts);
            ColumnOrSuperColumn cosc = new ColumnOrSuperColumn();
            if (cf.sup) cosc.setSuper_column(new SuperColumn(sc, new ArrayList<>(List.of(c))));
            else cosc.setColumn(c);
            Mutation m = new Mutation();
            m.setColumn_or_supercolumn(cosc);
            mut(cf, key, m);
        } else {
            flushBatch();
            ColumnPath p = new ColumnPath(cf.name);
            if (cf.sup) p.setSuper_column(sc);
            p.setColumn(name);
            client.insert(cf.ks, key, p, value, ts, CL);
            ops++;
        }
        note(cf, key, sc, name, ts);
    }

    /** remove(): the row (sc and name null), a super column (name null) or a column/subcolumn. */
    static void remove(CF cf, String key, byte[] sc, byte[] name, long ts) throws Exception {
        flushBatch();
        ColumnPath p = new ColumnPath(cf.name);
        if (sc != null) p.setSuper_column(sc);
        if (name != null) p.setColumn(name);
        client.remove(cf.ks, key, p, ts, CL);
        ops++;
        forget(cf, key, sc, name);
    }

    /** batch_mutate Deletion: no sc, no names = the row; sc only = a super column; names = those columns
     *  (of sc, or super columns of a super CF when sc is null). */
    static void delete(CF cf, String key, byte[] sc, List<byte[]> names, long ts) throws Exception {
        Deletion d = new Deletion(ts);
        if (sc != null) d.setSuper_column(sc);
        if (names != null) { SlicePredicate sp = new SlicePredicate(); sp.setColumn_names(names); d.setPredicate(sp); }
        Mutation m = new Mutation();
        m.setDeletion(d);
        mut(cf, key, m);
        if (names == null) forget(cf, key, sc, null);
        else for (byte[] n : names) { if (sc == null && cf.sup) forget(cf, key, n, null); else forget(cf, key, sc, n); }
    }

    // ---------------------------------------------------------------- names, values, keys

    static final String[] ASCII_WORDS = {"name", "email", "city", "zip", "phone", "age", "created_at", "status", "score",
            "title", "body", "tags", "Country", "Z", "a", "last_login", "ip", "x-id", "~tilde", "0start"};
    static final String[] UTF8_WORDS = {"name", "Zürich", "straße", "東京", "日本語", "café", "naïve", "Ωmega", "ключ",
            "😀smile", "𝄞clef", "\uFF5Efullwidth", "\uE000private", "a", "A", "ab", "é", "e\u0301", "zzz", "İstanbul"};

    static byte[] utf8(String s) { return s.getBytes(StandardCharsets.UTF_8); }

    static byte[] longBytes(long v) {
        byte[] b = new byte[8];
        for (int i = 7; i >= 0; i--) { b[i] = (byte) v; v >>>= 8; }
        return b;
    }

    static byte[] uuidBytes(long msb, long lsb) {
        byte[] b = new byte[16];
        System.arraycopy(longBytes(msb), 0, b, 0, 8);
        System.arraycopy(longBytes(lsb), 0, b, 8, 8);
        return b;
    }

    /** A version 1 (time-based) UUID at unix time millis (plus 100 ns ticks), with clock sequence and node. */
    static byte[] timeUUID(long unixMillis, int ticks, int clockSeq, long node) {
        long t = unixMillis * 10000 + ticks + 0x01B21DD213814000L;
        long msb = (t << 32) | ((t >>> 16) & 0xFFFF0000L) | 0x1000L | ((t >>> 48) & 0x0FFFL);
        long lsb = 0x8000000000000000L | ((long) (clockSeq & 0x3FFF) << 48) | (node & 0xFFFFFFFFFFFFL);
        return uuidBytes(msb, lsb);
    }

    static byte[] genName(String cmp) {
        switch (cmp) {
            case "BytesType": {
                int k = rnd.nextInt(4);
                if (k == 0) { byte[] b = new byte[1 + rnd.nextInt(8)]; rnd.nextBytes(b); return b; }
                if (k == 1) return new byte[]{(byte) rnd.nextInt(256)};
                return utf8(String.format("col%03d", rnd.nextInt(400)));
            }
            case "AsciiType": {
                String w = ASCII_WORDS[rnd.nextInt(ASCII_WORDS.length)];
                return utf8(rnd.nextBoolean() ? w : w + "_" + rnd.nextInt(20));
            }
            case "UTF8Type": {
                String w = UTF8_WORDS[rnd.nextInt(UTF8_WORDS.length)];
                return utf8(rnd.nextInt(3) == 0 ? w : w + " " + rnd.nextInt(30));
            }
            case "LongType": {
                switch (rnd.nextInt(5)) {
                    case 0: return longBytes(rnd.nextInt(2001) - 1000);
                    case 1: return longBytes(rnd.nextLong());
                    case 2: return longBytes(new long[]{Long.MIN_VALUE, Long.MAX_VALUE, 0, -1, 1, 255, 256, -256, Integer.MAX_VALUE, Integer.MIN_VALUE}[rnd.nextInt(10)]);
                    case 3: return longBytes(1285000000000L + rnd.nextInt(100000000));
                    default: return longBytes(-(long) rnd.nextInt(Integer.MAX_VALUE) * 3);
                }
            }
            case "LexicalUUIDType": {
                long msb = (rnd.nextLong() & ~0xF000L) | 0x4000L;
                long lsb = (rnd.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
                return uuidBytes(msb, lsb);
            }
            case "TimeUUIDType": {
                // clustered times, some equal to the millisecond (ordering then falls back to ticks and raw bytes)
                long ms = 1285000000000L + rnd.nextInt(40) * 1000L * (1 + rnd.nextInt(1000));
                return timeUUID(ms, rnd.nextInt(3) == 0 ? 0 : rnd.nextInt(10000), rnd.nextInt(0x4000), rnd.nextLong());
            }
            default: throw new IllegalArgumentException(cmp);
        }
    }

    static byte[] genValue() {
        int k = rnd.nextInt(40);
        if (k < 3) return new byte[0];
        if (k < 22) return utf8("v" + rnd.nextInt(100000) + (rnd.nextBoolean() ? "" : " " + UTF8_WORDS[rnd.nextInt(UTF8_WORDS.length)]));
        if (k < 39) { byte[] b = new byte[1 + rnd.nextInt(20)]; rnd.nextBytes(b); return b; }
        byte[] b = new byte[100 + rnd.nextInt(300)]; rnd.nextBytes(b); return b;
    }

    static byte[] bigger(byte[] v) { byte[] b = Arrays.copyOf(v, v.length + 1); b[v.length] = 0x7f; return b; }

    static byte[] smaller(byte[] v) { return v.length == 0 ? null : Arrays.copyOf(v, v.length - 1); }

    static List<byte[]> distinctNames(String cmp, int n) {
        LinkedHashMap<String, byte[]> m = new LinkedHashMap<>();
        for (int i = 0; m.size() < n && i < n * 20; i++) { byte[] b = genName(cmp); m.put(hex(b), b); }
        return new ArrayList<>(m.values());
    }

    static int keySeq;

    static String newKey(String style) {
        int i = keySeq++;
        switch (style) {
            case "user": return String.format("user:%05d", i);
            case "order": return String.format("order/2010-09-%02d/%d", 1 + i % 30, i);
            case "sess": return String.format("sess_%08x", (i * 2654435761L) & 0xffffffffL);
            case "uni": return new String[]{"clé-", "ключ-", "東京-", "😀-", "\uFF5E-", "Ünïcödé-", "a b c-", "tab\t-"}[i % 8] + i;
            default: return style + i;
        }
    }

    static String randomKey() {
        int k = rnd.nextInt(20);
        return newKey(k < 8 ? "user" : k < 13 ? "order" : k < 18 ? "sess" : "uni");
    }

    // ---------------------------------------------------------------- phases

    /** Writes n rows into cf: 1..maxCols columns (super: 1..maxSupers super columns of 1..maxSubs subcolumns). */
    static void writeRows(CF cf, List<String> keys, int maxCols, int maxSupers, int maxSubs) throws Exception {
        for (String key : keys) {
            boolean viaBatch = rnd.nextBoolean();
            if (!cf.sup) {
                for (byte[] n : distinctNames(cf.cmp, 1 + rnd.nextInt(maxCols))) put(cf, key, null, n, genValue(), now(), viaBatch);
            } else {
                for (byte[] sc : distinctNames(cf.cmp, 1 + rnd.nextInt(maxSupers)))
                    for (byte[] n : distinctNames(cf.sub, 1 + rnd.nextInt(maxSubs))) put(cf, key, sc, n, genValue(), now(), viaBatch);
            }
        }
        flushBatch();
    }

    static List<String> keys(int n) { List<String> l = new ArrayList<>(); for (int i = 0; i < n; i++) l.add(randomKey()); return l; }

    /** Rows shared between CFs of a keyspace, so batch_mutates and commit log entries carry several CFs. */
    static List<String> sharedKeys(List<String> pool, int n) {
        List<String> l = new ArrayList<>(pool);
        Collections.shuffle(l, rnd);
        return new ArrayList<>(l.subList(0, Math.min(n, l.size())));
    }

    /** Every kind of deletion and overwrite, scaled by k (about k of each). */
    static void deletionsAndOverwrites(CF cf, int k, boolean reinsertSame) throws Exception {
        // whole rows, newer than everything in them: through remove() and through a batch Deletion
        for (int i = 0; i < k; i++) remove(cf, pickKey(cf), null, null, now());
        for (int i = 0; i < k; i++) delete(cf, pickKey(cf), null, null, now());
        flushBatch();
        // a row deletion in the middle of the row's timestamps: older columns die, newer ones survive
        for (int i = 0; i < Math.max(1, k / 2); i++) {
            String key = pickKeyMulti(cf);
            List<Long> tss = new ArrayList<>();
            for (Object o : rows(cf).get(key).values()) {
                if (cf.sup) for (Object t : sub(o).values()) tss.add((Long) t); else tss.add((Long) o);
            }
            Collections.sort(tss);
            long mid = tss.size() >= 2 ? tss.get(tss.size() / 2) - 1 : tss.get(0);
            flushBatch();
            ColumnPath p = new ColumnPath(cf.name);
            client.remove(cf.ks, key, p, mid, CL);
            ops++;
            // keep the model's survivors
            LinkedHashMap<String, Object> row = rows(cf).get(key);
            if (cf.sup) for (Object o : row.values()) sub(o).values().removeIf(t -> (Long) t <= mid);
            else row.values().removeIf(t -> (Long) t <= mid);
        }
        // a row deleted and written again in the same phase (newer)
        if (reinsertSame) for (int i = 0; i < Math.max(1, k / 2); i++) {
            String key = pickKey(cf);
            remove(cf, key, null, null, now());
            writeRows(cf, List.of(key), 2, 1, 2);
        }
        // ghosts: deletions of rows that never existed in this CF
        for (int i = 0; i < Math.max(1, k / 2); i++) remove(cf, newKey("ghost"), null, null, now());
        delete(cf, newKey("ghost"), null, null, now());
        // single columns (subcolumns of super CFs): remove() and batch Deletions with column names
        for (int i = 0; i < 2 * k; i++) {
            String key = pickKey(cf); Object[] c = pickColumn(cf, key); if (c == null) continue;
            remove(cf, key, (byte[]) c[0], (byte[]) c[1], now());
        }
        for (int i = 0; i < k; i++) {
            String key = pickKey(cf); Object[] c = pickColumn(cf, key); if (c == null) continue;
            Object[] c2 = pickColumn(cf, key);
            List<byte[]> names = new ArrayList<>(List.of((byte[]) c[1]));
            if (c2 != null && Arrays.equals((byte[]) c[0], (byte[]) c2[0]) && !Arrays.equals((byte[]) c[1], (byte[]) c2[1])) names.add((byte[]) c2[1]);
            names.add(genName(cf.sup ? cf.sub : cf.cmp)); // plus one that may not exist
            delete(cf, key, (byte[]) c[0], names, now());
        }
        flushBatch();
        // a column that does not exist
        {
            String key = pickKey(cf);
            if (cf.sup) remove(cf, key, unhex(pickSuper(cf, key)), genName(cf.sub), now());
            else remove(cf, key, null, genName(cf.cmp), now());
        }
        if (cf.sup) {
            // super columns: remove(), batch Deletion of one super column, batch Deletion of super columns by name
            for (int i = 0; i < k; i++) { String key = pickKey(cf); remove(cf, key, unhex(pickSuper(cf, key)), null, now()); }
            for (int i = 0; i < k; i++) { String key = pickKey(cf); delete(cf, key, unhex(pickSuper(cf, key)), null, now()); }
            for (int i = 0; i < Math.max(1, k / 2); i++) {
                String key = pickKey(cf);
                delete(cf, key, null, new ArrayList<>(List.of(unhex(pickSuper(cf, key)), genName(cf.cmp))), now());
            }
            flushBatch();
            // a super column deleted in the middle of its subcolumns' timestamps
            for (int i = 0; i < Math.max(1, k / 2); i++) {
                String key = pickKeyMulti(cf);
                String sc = pickSuperMulti(cf, key);
                List<Long> tss = new ArrayList<>();
                for (Object t : sub(rows(cf).get(key).get(sc)).values()) tss.add((Long) t);
                Collections.sort(tss);
                long mid = tss.size() >= 2 ? tss.get(tss.size() / 2) - 1 : tss.get(0);
                ColumnPath p = new ColumnPath(cf.name); p.setSuper_column(unhex(sc));
                client.remove(cf.ks, key, p, mid, CL);
                ops++;
                sub(rows(cf).get(key).get(sc)).values().removeIf(t -> (Long) t <= mid);
            }
            // a super column deleted, then one subcolumn written again (newer)
            if (reinsertSame) for (int i = 0; i < Math.max(1, k / 2); i++) {
                String key = pickKey(cf); String sc = pickSuper(cf, key);
                remove(cf, key, unhex(sc), null, now());
                put(cf, key, unhex(sc), genName(cf.sub), genValue(), now(), rnd.nextBoolean());
            }
        }
        // overwrites: newer (wins), older (loses), same timestamp with a bigger value (wins) and a smaller
        // value (loses), a deletion at the same timestamp (the tombstone wins)
        for (int i = 0; i < 2 * k; i++) {
            String key = pickKey(cf); Object[] c = pickColumn(cf, key); if (c == null) continue;
            put(cf, key, (byte[]) c[0], (byte[]) c[1], genValue(), now(), rnd.nextBoolean());
        }
        for (int i = 0; i < k; i++) {
            String key = pickKey(cf); Object[] c = pickColumn(cf, key); if (c == null) continue;
            long old = (Long) c[2] - 1 - rnd.nextInt(1000);
            put(cf, key, (byte[]) c[0], (byte[]) c[1], utf8("older-loses"), old, rnd.nextBoolean());
            note(cf, key, (byte[]) c[0], (byte[]) c[1], (Long) c[2]);
        }
        for (int i = 0; i < Math.max(1, k / 2); i++) {
            String key = pickKey(cf); Object[] c = pickColumn(cf, key); if (c == null) continue;
            ColumnPath p = new ColumnPath(cf.name); if (cf.sup) p.setSuper_column((byte[]) c[0]); p.setColumn((byte[]) c[1]);
            byte[] cur;
            try { cur = client.get(cf.ks, key, p, CL).column.value; } catch (NotFoundException e) { continue; }
            put(cf, key, (byte[]) c[0], (byte[]) c[1], bigger(cur), (Long) c[2], false);
            byte[] sm = smaller(cur);
            if (sm != null) put(cf, key, (byte[]) c[0], (byte[]) c[1], sm, (Long) c[2], false);
        }
        for (int i = 0; i < Math.max(1, k / 2); i++) {
            String key = pickKey(cf); Object[] c = pickColumn(cf, key); if (c == null) continue;
            remove(cf, key, (byte[]) c[0], (byte[]) c[1], (Long) c[2]);
        }
        // new columns in existing rows
        for (int i = 0; i < 2 * k; i++) {
            String key = pickKey(cf);
            if (cf.sup) put(cf, key, rnd.nextBoolean() ? unhex(pickSuper(cf, key)) : genName(cf.cmp), genName(cf.sub), genValue(), now(), true);
            else put(cf, key, null, genName(cf.cmp), genValue(), now(), true);
        }
        flushBatch();
    }

    /** Deleted things written again: some newer than the deletion (they come back), some older (stay dead). */
    static final List<Object[]> deletedRows = new ArrayList<>();

    static void resurrections(CF cf, List<String> deletedKeys, long deletionTs) throws Exception {
        for (int i = 0; i < deletedKeys.size(); i++) {
            String key = deletedKeys.get(i);
            long ts = i % 2 == 0 ? now() : deletionTs - 10 - rnd.nextInt(100);
            if (cf.sup) put(cf, key, genName(cf.cmp), genName(cf.sub), utf8(i % 2 == 0 ? "back" : "older-stays-dead"), ts, rnd.nextBoolean());
            else put(cf, key, null, genName(cf.cmp), utf8(i % 2 == 0 ? "back" : "older-stays-dead"), ts, rnd.nextBoolean());
        }
        flushBatch();
    }

    // ---------------------------------------------------------------- node operations

    static void run(String... cmd) throws Exception {
        System.out.println("$ " + String.join(" ", cmd));
        Process p = new ProcessBuilder(cmd).inheritIO().start();
        if (p.waitFor() != 0) throw new IllegalStateException("failed: " + String.join(" ", cmd));
    }

    static void nodetool(String... args) throws Exception {
        List<String> c = new ArrayList<>(List.of(peer, "nodetool", String.valueOf(thriftPort)));
        c.addAll(List.of(args));
        run(c.toArray(new String[0]));
    }

    /** Waits until 0.6's thread pools (flush sorter/writer, post-flusher, ...) and compaction have been idle for 2 s. */
    static void quiesce() throws Exception {
        int idle = 0;
        for (int i = 0; i < 600 && idle < 10; i++) {
            Thread.sleep(200);
            long busy = 0;
            for (ObjectName n : jmx.queryNames(new ObjectName("org.apache.cassandra.concurrent:*"), null)) {
                busy += ((Number) jmx.getAttribute(n, "ActiveCount")).longValue();
                busy += ((Number) jmx.getAttribute(n, "PendingTasks")).longValue();
            }
            if (jmx.getAttribute(new ObjectName("org.apache.cassandra.db:type=CompactionManager"), "ColumnFamilyInProgress") != null) busy++;
            idle = busy == 0 ? idle + 1 : 0;
        }
        if (idle < 10) throw new IllegalStateException("node did not become idle");
    }

    static void flush(String ks, String... cfs) throws Exception {
        flushBatch();
        List<String> a = new ArrayList<>(List.of("flush", ks));
        a.addAll(List.of(cfs));
        nodetool(a.toArray(new String[0]));
        quiesce();
    }

    static ObjectName cfsBean(CF cf) throws Exception {
        return new ObjectName("org.apache.cassandra.db:type=ColumnFamilyStores,keyspace=" + cf.ks + ",columnfamily=" + cf.name);
    }

    /** Major compaction of one CF (ColumnFamilyStoreMBean.forceMajorCompaction, what nodetool compact does for every CF). */
    static void compact(CF cf) throws Exception {
        int before = ((Number) jmx.getAttribute(cfsBean(cf), "LiveSSTableCount")).intValue();
        System.out.println("major compaction of " + cf.id() + " (" + before + " sstables)");
        jmx.invoke(cfsBean(cf), "forceMajorCompaction", new Object[0], new String[0]);
        for (int i = 0; i < 300; i++) {
            Thread.sleep(200);
            int live = ((Number) jmx.getAttribute(cfsBean(cf), "LiveSSTableCount")).intValue();
            if (live <= 1 && jmx.getAttribute(new ObjectName("org.apache.cassandra.db:type=CompactionManager"), "ColumnFamilyInProgress") == null) break;
        }
        quiesce();
    }

    static long segmentBytes() throws IOException {
        long last = 0; String lastName = "";
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(Paths.get(nodeDir, "data", "commitlog"), "CommitLog-*.log")) {
            for (Path p : ds) if (p.getFileName().toString().compareTo(lastName) > 0) { lastName = p.getFileName().toString(); last = Files.size(p); }
        }
        return last;
    }

    static int segmentCount() throws IOException {
        int n = 0;
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(Paths.get(nodeDir, "data", "commitlog"), "CommitLog-*.log")) { for (Path p : ds) n++; }
        return n;
    }

    // ---------------------------------------------------------------- the oracle

    static final char[] HEX = "0123456789abcdef".toCharArray();

    static String hex(byte[] b) {
        StringBuilder s = new StringBuilder(b.length * 2);
        for (byte x : b) s.append(HEX[(x >> 4) & 15]).append(HEX[x & 15]);
        return s.toString();
    }

    static byte[] unhex(String h) {
        byte[] b = new byte[h.length() / 2];
        for (int i = 0; i < b.length; i++) b[i] = (byte) Integer.parseInt(h.substring(2 * i, 2 * i + 2), 16);
        return b;
    }

    static SlicePredicate all() {
        SlicePredicate sp = new SlicePredicate();
        sp.setSlice_range(new SliceRange(new byte[0], new byte[0], false, 1000000));
        return sp;
    }

    static void writeCosc(StringBuilder out, List<ColumnOrSuperColumn> cols) {
        for (ColumnOrSuperColumn c : cols) {
            if (c.column != null) out.append("C ").append(hex(c.column.name)).append(' ').append(hex(c.column.value)).append(' ').append(c.column.timestamp).append('\n');
            else {
                out.append("S ").append(hex(c.super_column.name)).append('\n');
                for (Column s : c.super_column.columns)
                    out.append("  C ").append(hex(s.name)).append(' ').append(hex(s.value)).append(' ').append(s.timestamp).append('\n');
            }
        }
    }

    static final int PAGE = 10000;

    /** get_range_slices over the whole ring, paged from the last key as clients do. Returns the row count. */
    static int dumpRange(CF cf, Path file) throws Exception {
        StringBuilder out = new StringBuilder();
        String start = "";
        int rows = 0;
        while (true) {
            KeyRange kr = new KeyRange(PAGE);
            kr.setStart_key(start);
            kr.setEnd_key("");
            List<KeySlice> page = client.get_range_slices(cf.ks, new ColumnParent(cf.name), all(), kr, CL);
            int from = start.isEmpty() ? 0 : 1;
            if (!start.isEmpty() && (page.isEmpty() || !page.get(0).key.equals(start))) throw new IllegalStateException("paging lost its start key");
            for (int i = from; i < page.size(); i++) {
                KeySlice ks = page.get(i);
                out.append("R ").append(hex(utf8(ks.key))).append('\n');
                writeCosc(out, ks.columns);
                rows++;
            }
            if (page.size() < PAGE) break;
            start = page.get(page.size() - 1).key;
        }
        Files.writeString(file, out.toString());
        return rows;
    }

    static void slice(StringBuilder out, CF cf, String key, byte[] sc, byte[] start, byte[] finish, boolean reversed, int count) throws Exception {
        ColumnParent cp = new ColumnParent(cf.name);
        if (sc != null) cp.setSuper_column(sc);
        SlicePredicate sp = new SlicePredicate();
        sp.setSlice_range(new SliceRange(start, finish, reversed, count));
        List<ColumnOrSuperColumn> r = client.get_slice(cf.ks, key, cp, sp, CL);
        out.append("Q ").append(cf.ks).append(' ').append(cf.name).append(" key=").append(hex(utf8(key)))
           .append(" super=").append(sc == null ? "-" : hex(sc)).append(" start=").append(hex(start)).append(" finish=").append(hex(finish))
           .append(" reversed=").append(reversed).append(" count=").append(count).append('\n');
        writeCosc(out, r);
    }

    /** A few get_slice answers (mostly reversed, with counts) on the given rows. */
    static void slices(StringBuilder out, CF cf, List<String> keys) throws Exception {
        for (String key : keys) {
            ColumnParent cp = new ColumnParent(cf.name);
            List<ColumnOrSuperColumn> full = client.get_slice(cf.ks, key, cp, all(), CL);
            if (full.isEmpty()) continue;
            slice(out, cf, key, null, new byte[0], new byte[0], true, 3);
            slice(out, cf, key, null, new byte[0], new byte[0], true, full.size() > 100 ? 40 : 1000000);
            byte[] mid = name(full.get(full.size() / 2));
            byte[] first = name(full.get(0));
            slice(out, cf, key, null, mid, new byte[0], true, 4);
            slice(out, cf, key, null, mid, first, true, 30);
            slice(out, cf, key, null, first, mid, false, 2);
            if (cf.sup) {
                byte[] sc = full.get(full.size() / 2).super_column.name;
                slice(out, cf, key, sc, new byte[0], new byte[0], true, 2);
                slice(out, cf, key, sc, new byte[0], new byte[0], false, 1000);
            }
        }
    }

    static byte[] name(ColumnOrSuperColumn c) { return c.column != null ? c.column.name : c.super_column.name; }

    static void oracle(Path out, Map<CF, List<String>> sliceKeys) throws Exception {
        flushBatch();
        quiesce();
        System.out.println("commit log before the reads: " + segmentCount() + " segment(s), last " + segmentBytes() + " bytes");
        Path exp = out.resolve("expected");
        Files.createDirectories(exp);
        Set<String> kss = new LinkedHashSet<>();
        for (CF cf : CFS) kss.add(cf.ks);
        String token = null;
        StringBuilder ring = new StringBuilder();
        for (String ks : kss) {
            List<TokenRange> r = client.describe_ring(ks);
            ring.append(ks).append(": ").append(r).append('\n');
            if (r.size() != 1 || !r.get(0).start_token.equals(r.get(0).end_token)) throw new IllegalStateException("ring: " + r);
            if (token != null && !token.equals(r.get(0).end_token)) throw new IllegalStateException("tokens differ");
            token = r.get(0).end_token;
        }
        String jmxToken = (String) jmx.getAttribute(new ObjectName("org.apache.cassandra.service:type=StorageService"), "Token");
        if (!jmxToken.contains(token)) throw new IllegalStateException("describe_ring token " + token + " != StorageService token " + jmxToken);
        Files.writeString(exp.resolve("token.txt"), token + "\n");
        System.out.print("describe_ring " + ring);
        System.out.println("partitioner " + client.describe_partitioner());
        for (CF cf : CFS) {
            int n = dumpRange(cf, exp.resolve(cf.id() + ".txt"));
            System.out.println("expected " + cf.id() + ": " + n + " rows");
        }
        StringBuilder s = new StringBuilder();
        for (Map.Entry<CF, List<String>> e : sliceKeys.entrySet()) slices(s, e.getKey(), e.getValue());
        Files.writeString(exp.resolve("slices.txt"), s.toString());
        // 0.6 may send itself READ_REPAIR mutations while answering (even at ReplicationFactor 1): let them land
        quiesce();
        System.out.println("commit log after the reads: " + segmentCount() + " segment(s), last " + segmentBytes() + " bytes");
    }

    // ---------------------------------------------------------------- fixtures

    /** The column families of each fixture (make-fixtures.sh writes them into storage-conf.xml from "keyspaces"). */
    static void declare(String fixture) {
        switch (fixture) {
            case "random-killed":
                cf("Keyspace1", "Standard1", "BytesType");
                cf("Keyspace1", "StdAscii", "AsciiType");
                cf("Keyspace1", "StdUTF8", "UTF8Type");
                cf("Keyspace1", "StdLong", "LongType");
                cf("Keyspace1", "StdLexicalUUID", "LexicalUUIDType");
                cf("Keyspace1", "StdTimeUUID", "TimeUUIDType");
                sup("Keyspace1", "Super1", "BytesType", "BytesType");
                sup("Keyspace1", "SuperLong", "LongType", "UTF8Type");
                cf("Keyspace2", "Standard1", "BytesType");
                cf("Keyspace2", "StdUTF8", "UTF8Type");
                sup("Keyspace2", "SuperTimeUUID", "TimeUUIDType", "UTF8Type");
                break;
            case "opp-drained":
                cf("Keyspace1", "Standard1", "BytesType");
                cf("Keyspace1", "StdUTF8", "UTF8Type");
                sup("Keyspace1", "Super1", "UTF8Type", "BytesType");
                break;
            case "copp-stopped":
                cf("Keyspace1", "Standard1", "UTF8Type");
                sup("Keyspace1", "Super1", "LongType", "AsciiType");
                break;
            default: throw new IllegalArgumentException(fixture);
        }
    }

    static CF get(String id) {
        for (CF c : CFS) if (c.id().equals(id)) return c;
        throw new IllegalArgumentException(id);
    }

    /** The Keyspaces element of storage-conf.xml for the declared CFs. */
    static String keyspacesXml() {
        StringBuilder x = new StringBuilder("  <Keyspaces>\n");
        String ks = null;
        for (CF c : CFS) {
            if (!c.ks.equals(ks)) {
                if (ks != null) x.append(KS_TAIL);
                ks = c.ks;
                x.append("    <Keyspace Name=\"").append(ks).append("\">\n");
            }
            x.append("      <ColumnFamily Name=\"").append(c.name).append("\"");
            if (c.sup) x.append(" ColumnType=\"Super\"");
            x.append(" CompareWith=\"").append(c.cmp).append("\"");
            if (c.sup) x.append(" CompareSubcolumnsWith=\"").append(c.sub).append("\"");
            x.append("/>\n");
        }
        x.append(KS_TAIL).append("  </Keyspaces>\n");
        return x.toString();
    }

    static final String KS_TAIL = "      <ReplicaPlacementStrategy>org.apache.cassandra.locator.RackUnawareStrategy</ReplicaPlacementStrategy>\n"
            + "      <ReplicationFactor>1</ReplicationFactor>\n"
            + "      <EndPointSnitch>org.apache.cassandra.locator.EndPointSnitch</EndPointSnitch>\n"
            + "    </Keyspace>\n";

    static List<String> tail(List<String> l, int n) { return new ArrayList<>(l.subList(Math.max(0, l.size() - n), l.size())); }

    /** RandomPartitioner, two keyspaces, all comparators, deletions across SSTables, a compaction, a commit log
     *  tail whose header matters, then (by the caller) kill -9. */
    static void randomKilled(Path out) throws Exception {
        CF std1 = get("Keyspace1.Standard1");
        CF ascii = get("Keyspace1.StdAscii");
        CF utf = get("Keyspace1.StdUTF8");
        CF lng = get("Keyspace1.StdLong");
        CF lex = get("Keyspace1.StdLexicalUUID");
        CF tuuid = get("Keyspace1.StdTimeUUID");
        CF super1 = get("Keyspace1.Super1");
        CF superLong = get("Keyspace1.SuperLong");
        CF k2std = get("Keyspace2.Standard1");
        CF k2utf = get("Keyspace2.StdUTF8");
        CF k2super = get("Keyspace2.SuperTimeUUID");

        // ---- a. inserts and batch_mutates into every CF; rows shared between CFs of a keyspace
        System.out.println("== phase a: writes");
        List<String> pool1 = keys(260), pool2 = keys(80);
        writeRows(std1, sharedKeys(pool1, 150), 8, 0, 0);
        // one wide row of ~20 KB, so its SSTable row carries a column index of several blocks (this fixture's
        // storage-conf.xml sets ColumnIndexSizeInKB to 4; other rows of a few KB get two blocks too)
        for (int i = 0; i < 240; i++) {
            byte[] v = new byte[60]; rnd.nextBytes(v);
            put(std1, "wide:1", null, utf8(String.format("w%05d", i)), v, now(), true);
        }
        flushBatch();
        writeRows(ascii, sharedKeys(pool1, 40), 6, 0, 0);
        writeRows(utf, sharedKeys(pool1, 60), 6, 0, 0);
        writeRows(lng, sharedKeys(pool1, 50), 8, 0, 0);
        writeRows(lex, sharedKeys(pool1, 40), 6, 0, 0);
        writeRows(tuuid, sharedKeys(pool1, 50), 8, 0, 0);
        writeRows(super1, sharedKeys(pool1, 40), 0, 4, 5);
        writeRows(superLong, sharedKeys(pool1, 30), 0, 4, 4);
        writeRows(k2std, sharedKeys(pool2, 40), 6, 0, 0);
        writeRows(k2utf, sharedKeys(pool2, 30), 6, 0, 0);
        writeRows(k2super, sharedKeys(pool2, 30), 0, 3, 4);
        // one batch_mutate touching several CFs of a row at once
        for (String key : sharedKeys(pool1, 10)) {
            put(std1, key, null, genName("BytesType"), genValue(), now(), true);
            put(utf, key, null, genName("UTF8Type"), genValue(), now(), true);
            put(super1, key, genName("BytesType"), genName("BytesType"), genValue(), now(), true);
            put(superLong, key, genName("LongType"), genName("UTF8Type"), genValue(), now(), true);
        }
        flushBatch();
        flush("Keyspace1");
        flush("Keyspace2");

        // ---- b. deletions of every kind and overwrites, shadowing the first SSTables
        System.out.println("== phase b: deletions and overwrites");
        Map<CF, List<String>> deletedInB = new HashMap<>();
        Map<CF, Long> deletionTsB = new HashMap<>();
        for (CF cf : CFS) {
            List<String> victims = new ArrayList<>();
            for (int i = 0; i < 4; i++) victims.add(pickKey(cf));
            long ts = now();
            for (String v : new LinkedHashSet<>(victims)) remove(cf, v, null, null, ts);
            deletedInB.put(cf, new ArrayList<>(new LinkedHashSet<>(victims)));
            deletionTsB.put(cf, ts);
            deletionsAndOverwrites(cf, 4, true);
        }
        // delete a slice of the wide row's columns and one row-level deletion in the middle of it
        List<byte[]> wideDel = new ArrayList<>();
        for (int i = 0; i < 20; i++) wideDel.add(utf8(String.format("w%05d", 120 + 3 * i)));
        delete(std1, "wide:1", null, wideDel, now());
        flushBatch();
        flush("Keyspace1");
        flush("Keyspace2");

        // ---- c. more writes (new rows, things deleted in b written again newer and older), then a major
        //         compaction of some CFs; the others keep their separate SSTables
        System.out.println("== phase c: more writes, compaction");
        for (CF cf : CFS) {
            writeRows(cf, keys(cf.sup ? 6 : 10), cf.sup ? 0 : 5, 3, 3);
            resurrections(cf, deletedInB.get(cf), deletionTsB.get(cf));
            for (int i = 0; i < 2; i++) remove(cf, pickKey(cf), null, null, now());
            for (int i = 0; i < 3; i++) { String key = pickKey(cf); Object[] c = pickColumn(cf, key); if (c != null) remove(cf, key, (byte[]) c[0], (byte[]) c[1], now()); }
            if (cf.sup) for (int i = 0; i < 2; i++) { String key = pickKey(cf); remove(cf, key, unhex(pickSuper(cf, key)), null, now()); }
        }
        flush("Keyspace1");
        flush("Keyspace2");
        for (CF cf : List.of(std1, lng, super1, k2super)) compact(cf);

        // ---- d. the unflushed commit log tail. Fill the current segment (1 MB, CommitLogRotationThresholdInMB)
        //         with unflushed rows of Keyspace2.Standard1 so that the tail spans two segments; write B
        //         (Keyspace1.StdUTF8) and Keyspace2.StdUTF8; write A (Keyspace1.Standard1) across the segment
        //         boundary; flush only A; then more writes and deletions to A and other CFs. Nothing is flushed
        //         after that.
        System.out.println("== phase d: unflushed tail (segment " + segmentBytes() + " bytes, " + segmentCount() + " segment(s))");
        int fill = 0;
        while (segmentBytes() < 1024 * 1024 - 12 * 1024) {
            byte[] v = new byte[4000]; rnd.nextBytes(v);
            put(k2std, String.format("fill:%04d", fill++), null, utf8("blob"), v, now(), false);
        }
        System.out.println("filled with " + fill + " rows; segment " + segmentBytes() + " bytes");
        CF b = utf;
        writeRows(b, keys(5), 4, 0, 0);
        for (int i = 0; i < 5; i++) { String key = pickKey(b); Object[] c = pickColumn(b, key); put(b, key, null, (byte[]) c[1], genValue(), now(), rnd.nextBoolean()); }
        for (int i = 0; i < 2; i++) { String key = pickKey(b); Object[] c = pickColumn(b, key); remove(b, key, null, (byte[]) c[1], now()); }
        remove(b, pickKey(b), null, null, now());
        writeRows(k2utf, keys(3), 3, 0, 0);
        remove(k2utf, pickKey(k2utf), null, null, now());
        CF a = std1;
        int segsBefore = segmentCount();
        List<String> aKeys = keys(12);
        for (String key : aKeys) {
            for (int i = 0; i < 4; i++) put(a, key, null, genName("BytesType"), genValue(), now(), false);
        }
        while (segmentCount() == segsBefore) { byte[] v = new byte[500]; rnd.nextBytes(v); put(a, pick(aKeys), null, genName("BytesType"), v, now(), false); }
        remove(a, pickKey(a), null, null, now());
        { String key = pickKey(a); Object[] c = pickColumn(a, key); remove(a, key, null, (byte[]) c[1], now()); }
        System.out.println("segments now " + segmentCount() + "; flushing only " + a.id());
        flush("Keyspace1", a.name);
        // after A's flush: more to A (new rows, deletions of rows and columns in SSTables, an older overwrite
        // that loses against an SSTable) and to other CFs, including deletions of every kind
        writeRows(a, keys(6), 4, 0, 0);
        for (int i = 0; i < 3; i++) remove(a, pickKey(a), null, null, now());
        for (int i = 0; i < 3; i++) { String key = pickKey(a); Object[] c = pickColumn(a, key); remove(a, key, null, (byte[]) c[1], now()); }
        { String key = pickKey(a); Object[] c = pickColumn(a, key); put(a, key, null, (byte[]) c[1], utf8("older-loses"), (Long) c[2] - 5, false); note(a, key, null, (byte[]) c[1], (Long) c[2]); }
        { String key = pickKey(a); Object[] c = pickColumn(a, key); put(a, key, null, (byte[]) c[1], utf8("newer-wins"), now(), false); }
        List<byte[]> wideDel2 = new ArrayList<>();
        for (int i = 0; i < 10; i++) wideDel2.add(utf8(String.format("w%05d", 100 + 7 * i)));
        delete(a, "wide:1", null, wideDel2, now());
        put(a, "wide:1", null, utf8("w00000"), utf8("newer-wins"), now(), true);
        flushBatch();
        for (CF cf : List.of(super1, superLong, k2super)) {
            { String key = pickKey(cf); remove(cf, key, unhex(pickSuper(cf, key)), null, now()); }
            { String key = pickKey(cf); Object[] c = pickColumn(cf, key); if (c != null) remove(cf, key, (byte[]) c[0], (byte[]) c[1], now()); }
            { String key = pickKey(cf); delete(cf, key, unhex(pickSuper(cf, key)), List.of(genName(cf.sub)), now()); }
            remove(cf, pickKey(cf), null, null, now());
            writeRows(cf, keys(2), 0, 2, 3);
            { String key = pickKey(cf); Object[] c = pickColumn(cf, key); if (c != null) put(cf, key, (byte[]) c[0], (byte[]) c[1], utf8("tail-overwrite"), now(), true); }
        }
        for (CF cf : List.of(ascii, lng, lex, tuuid, k2std)) {
            writeRows(cf, keys(2), 3, 0, 0);
            { String key = pickKey(cf); Object[] c = pickColumn(cf, key); remove(cf, key, null, (byte[]) c[1], now()); }
            remove(cf, pickKey(cf), null, null, now());
            remove(cf, newKey("ghost"), null, null, now());
        }
        // the filler rows die again in the tail (replay must apply both), all but three
        for (int i = 3; i < fill; i++) {
            if (i % 2 == 0) remove(k2std, String.format("fill:%04d", i), null, null, now());
            else delete(k2std, String.format("fill:%04d", i), null, null, now());
        }
        flushBatch();
        System.out.println("tail written: " + segmentCount() + " segment(s), last " + segmentBytes() + " bytes; " + ops + " Thrift writes in all");

        // ---- e. the oracle; the caller kills the node (kill -9) right after
        Map<CF, List<String>> sk = new LinkedHashMap<>();
        sk.put(std1, List.of("wide:1", pickKey(std1)));
        sk.put(lng, List.of(pickKey(lng), pickKey(lng)));
        sk.put(tuuid, List.of(pickKey(tuuid)));
        sk.put(super1, List.of(pickKey(super1)));
        sk.put(k2super, List.of(pickKey(k2super)));
        oracle(out, sk);
    }

    /** OrderPreservingPartitioner: writes, deletions, a compaction of Standard1, more writes, then drain. */
    static void oppDrained(Path out) throws Exception {
        CF std = get("Keyspace1.Standard1");
        CF utf = get("Keyspace1.StdUTF8");
        CF sup = get("Keyspace1.Super1");
        // keys whose UTF-16 order (0.6's StringToken) differs from their UTF-8 byte order
        List<String> special = List.of("😀-emoji", "\uFF5E-fullwidth", "\uE000-private", "é-accent", "Zebra", "apple", "Apple",
                "a", "a\u0000nul", "a b", "key:10", "key:9", "~tilde");
        List<String> pool = new ArrayList<>(special);
        pool.addAll(keys(50));
        System.out.println("== phase a: writes");
        writeRows(std, sharedKeys(pool, 45), 6, 0, 0);
        writeRows(utf, sharedKeys(pool, 30), 6, 0, 0);
        writeRows(sup, sharedKeys(pool, 25), 0, 3, 4);
        for (String k : special) put(std, k, null, utf8("k"), utf8(k), now(), false);
        flush("Keyspace1");
        System.out.println("== phase b: deletions and overwrites");
        for (CF cf : CFS) deletionsAndOverwrites(cf, 2, true);
        flush("Keyspace1");
        compact(std);
        System.out.println("== phase c: more writes and deletions, left to drain");
        for (CF cf : CFS) {
            writeRows(cf, keys(4), 4, 2, 3);
            remove(cf, pickKey(cf), null, null, now());
            { String key = pickKey(cf); Object[] c = pickColumn(cf, key); if (c != null) remove(cf, key, (byte[]) c[0], (byte[]) c[1], now()); }
        }
        remove(std, "apple", null, null, now());
        flushBatch();
        Map<CF, List<String>> sk = new LinkedHashMap<>();
        sk.put(std, List.of(pickKey(std)));
        sk.put(sup, List.of(pickKey(sup)));
        oracle(out, sk);
    }

    /** CollatingOrderPreservingPartitioner: writes, one flush, deletions and writes left in the commit log. */
    static void coppStopped(Path out) throws Exception {
        CF std = get("Keyspace1.Standard1");
        CF sup = get("Keyspace1.Super1");
        // keys whose en_US collation order differs from their byte order
        List<String> special = List.of("apple", "Apple", "APPLE", "banana", "Banana", "ábc", "abd", "Ábc", "a-b", "ab", "a b",
                "zebra", "Zürich", "Zurich", "10", "9", "straße", "strasse", "東京", "😀");
        List<String> pool = new ArrayList<>(special);
        pool.addAll(keys(40));
        System.out.println("== phase a: writes");
        writeRows(std, sharedKeys(pool, 40), 6, 0, 0);
        writeRows(sup, sharedKeys(pool, 25), 0, 3, 4);
        for (String k : special) put(std, k, null, utf8("key"), utf8(k), now(), false);
        flush("Keyspace1");
        System.out.println("== phase b: deletions, overwrites and writes, commit log only");
        for (CF cf : CFS) deletionsAndOverwrites(cf, 2, true);
        for (CF cf : CFS) writeRows(cf, keys(5), 4, 2, 3);
        remove(std, "Banana", null, null, now());
        flushBatch();
        Map<CF, List<String>> sk = new LinkedHashMap<>();
        sk.put(std, List.of("apple", pickKey(std)));
        sk.put(sup, List.of(pickKey(sup)));
        oracle(out, sk);
    }

    /** Reads a fixture back from a 0.6 node restarted on a copy of it: the token, every CF's range and the
     *  queries of expected/slices.txt, into out/ in the same formats (make-fixtures.sh diffs them). */
    static void readBack(Path expected, Path out) throws Exception {
        Files.createDirectories(out);
        List<TokenRange> r = client.describe_ring(CFS.get(0).ks);
        Files.writeString(out.resolve("token.txt"), r.get(0).end_token + "\n");
        for (CF cf : CFS) dumpRange(cf, out.resolve(cf.id() + ".txt"));
        StringBuilder s = new StringBuilder();
        for (String line : Files.readAllLines(expected.resolve("slices.txt"))) {
            if (!line.startsWith("Q ")) continue;
            String[] f = line.split(" ");
            Map<String, String> kv = new HashMap<>();
            for (int i = 3; i < f.length; i++) { int e = f[i].indexOf('='); kv.put(f[i].substring(0, e), f[i].substring(e + 1)); }
            slice(s, get(f[1] + "." + f[2]), new String(unhex(kv.get("key")), StandardCharsets.UTF_8),
                  kv.get("super").equals("-") ? null : unhex(kv.get("super")), unhex(kv.get("start")), unhex(kv.get("finish")),
                  Boolean.parseBoolean(kv.get("reversed")), Integer.parseInt(kv.get("count")));
        }
        Files.writeString(out.resolve("slices.txt"), s.toString());
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: MakeFixtures keyspaces FIXTURE                   the <Keyspaces> element for storage-conf.xml\n"
                             + "       MakeFixtures make FIXTURE THRIFT_PORT OUTDIR      run the phases, write OUTDIR/expected\n"
                             + "       MakeFixtures readback FIXTURE THRIFT_PORT EXPECTED_DIR OUTDIR\n"
                             + "FIXTURE: random-killed | opp-drained | copp-stopped. env: NODE_DIR, PEER, JMX_PORT (make)");
            System.exit(2);
        }
        String mode = args[0], fixture = args[1];
        declare(fixture);
        if (mode.equals("keyspaces")) { System.out.print(keyspacesXml()); return; }
        thriftPort = Integer.parseInt(args[2]);
        jmxPort = Integer.parseInt(System.getenv().getOrDefault("JMX_PORT", String.valueOf(8261 + thriftPort - 9261)));
        if (mode.equals("readback")) { connect(); readBack(Paths.get(args[3]), Paths.get(args[4])); return; }
        if (!mode.equals("make")) throw new IllegalArgumentException(mode);
        nodeDir = System.getenv("NODE_DIR");
        peer = System.getenv("PEER");
        if (nodeDir == null || peer == null) throw new IllegalStateException("NODE_DIR and PEER must be set (make-fixtures.sh does)");
        Path out = Paths.get(args[3]);
        rnd = new Random(fixture.hashCode());
        connect();
        switch (fixture) {
            case "random-killed": randomKilled(out); break;
            case "opp-drained": oppDrained(out); break;
            case "copp-stopped": coppStopped(out); break;
            default: throw new IllegalArgumentException(fixture);
        }
        System.out.println(fixture + ": done, " + ops + " Thrift writes");
    }
}

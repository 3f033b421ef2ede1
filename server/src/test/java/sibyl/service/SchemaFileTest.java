package sibyl.service;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import sibyl.db.Validators;
import sibyl.db.marshal.MarshalTypes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.db.CFMetaData;
import sibyl.db.CacheConfig;
import sibyl.db.ColumnIndexes;
import sibyl.db.KSMetaData;
import sibyl.db.LogPosition;
import sibyl.db.marshal.BytesType;
import sibyl.db.marshal.LongType;
import sibyl.db.marshal.TimeUUIDType;
import sibyl.db.marshal.UTF8Type;

/** The schema file of the keyspaces made by API (io/FORMAT.md, "Schema file"): what is written is read back; damage stops the read. */
class SchemaFileTest {
    @TempDir
    Path dir;

    private static SchemaFile.Contents sample() {
        Validators validators = new Validators(LongType.instance, UTF8Type.instance, Map.of(
                ByteBuffer.wrap("age".getBytes(StandardCharsets.UTF_8)), MarshalTypes.forName("IntegerType"),
                ByteBuffer.wrap(new byte[] {(byte) 0xff, 0}), MarshalTypes.forName("CompositeType(UTF8Type,LongType)")));
        CFMetaData standard = new CFMetaData("Ks", "Std", false, UTF8Type.instance, null, "é comment", CacheConfig.NONE,
                OptionalInt.of(3600), validators, 86400).withIndexes(new ColumnIndexes(Map.of(
                ByteBuffer.wrap("age".getBytes(StandardCharsets.UTF_8)), "Std_age_idx")));
        CFMetaData superCf = new CFMetaData("Ks", "Sup", true, LongType.instance, TimeUUIDType.instance, null,
                CacheConfig.NONE, OptionalInt.empty(), Validators.NONE);
        return new SchemaFile.Contents(List.of(new KSMetaData("Ks", 2, List.of(standard, superCf)),
                new KSMetaData("Empty", 1, List.of())),
                List.of(new SchemaFile.Dropped("Ks", "Old", new LogPosition(7, 42))));
    }

    /** The validators by the names of their types, each column's name in hex. */
    private static List<String> named(Validators v) {
        List<String> named = new java.util.ArrayList<>(List.of(v.key().className(), v.defaultValue().className()));
        for (Map.Entry<ByteBuffer, sibyl.db.marshal.AbstractType> c : v.columns().entrySet()) {
            byte[] name = new byte[c.getKey().remaining()];
            c.getKey().duplicate().get(name);
            named.add(java.util.HexFormat.of().formatHex(name) + "=" + c.getValue().className());
        }
        java.util.Collections.sort(named.subList(2, named.size()));
        return named;
    }

    @Test
    void whatIsWrittenIsReadBack() throws IOException {
        SchemaFile file = new SchemaFile(dir.resolve("system"));
        assertEquals(SchemaFile.Contents.EMPTY, file.read(), "no file yet: nothing made by API");
        file.write(sample());
        SchemaFile.Contents read = file.read();
        assertEquals(2, read.keyspaces().size());
        KSMetaData ks = read.keyspaces().get(0);
        assertEquals(2, ks.replicationFactor());
        CFMetaData std = ks.columnFamily("Std").orElseThrow();
        assertTrue(std.sameRowsAs(sample().keyspaces().get(0).columnFamily("Std").orElseThrow()));
        assertEquals("é comment", std.comment());
        assertEquals(OptionalInt.of(3600), std.gcGraceSeconds());
        assertEquals(86400, std.defaultTimeToLive());
        assertEquals("Std_age_idx", std.indexes().nameOf(ByteBuffer.wrap("age".getBytes(StandardCharsets.UTF_8))));
        assertTrue(ks.columnFamily("Sup").orElseThrow().indexes().isEmpty());
        assertEquals(0, ks.columnFamily("Sup").orElseThrow().defaultTimeToLive());
        assertEquals(named(sample().keyspaces().get(0).columnFamily("Std").orElseThrow().validators()),
                named(std.validators()), "the validation classes, a composite one and a name of bytes among them");
        CFMetaData sup = ks.columnFamily("Sup").orElseThrow();
        assertTrue(sup.isSuper() && sup.subcomparator() == TimeUUIDType.instance && sup.comment() == null);
        assertEquals(OptionalInt.empty(), sup.gcGraceSeconds());
        assertEquals(new LogPosition(7, 42), read.droppedAt("Ks", "Old"));
        assertEquals(LogPosition.NONE, read.droppedAt("Ks", "Std"));
        assertFalse(Files.exists(dir.resolve("system/schema.tmp")), "renamed into place");
        file.write(new SchemaFile.Contents(List.of(new KSMetaData("Other", 1, List.of(CFMetaData.standard("Other", "C",
                BytesType.instance)))), List.of()));
        assertEquals(List.of("Other"), file.read().keyspaces().stream().map(KSMetaData::name).toList(), "replaced whole");
    }

    /** A file of version 1, written before secondary indexes, is read as column families without any. */
    @Test
    void aFileOfVersionOneIsStillRead() throws IOException {
        java.io.ByteArrayOutputStream bodyBytes = new java.io.ByteArrayOutputStream();
        java.io.DataOutputStream body = new java.io.DataOutputStream(bodyBytes);
        body.writeInt(1);
        utf(body, "Old");
        body.writeInt(1);
        body.writeInt(1);
        utf(body, "C");
        body.writeBoolean(false);
        utf(body, "org.apache.cassandra.db.marshal.UTF8Type");
        utf(body, "");
        body.writeBoolean(false);
        body.writeInt(-1);
        utf(body, "org.apache.cassandra.db.marshal.BytesType");
        utf(body, "org.apache.cassandra.db.marshal.BytesType");
        body.writeInt(0);
        body.writeInt(600);
        body.writeInt(0);
        byte[] b = bodyBytes.toByteArray();
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(b);
        ByteBuffer file = ByteBuffer.allocate(8 + 12 + b.length);
        file.put("SIBYLSCH".getBytes(StandardCharsets.US_ASCII)).putInt(1).putInt(b.length).put(b).putInt((int) crc.getValue());
        Files.createDirectories(dir);
        Files.write(dir.resolve("schema"), file.array());
        CFMetaData cf = new SchemaFile(dir).read().keyspaces().get(0).columnFamily("C").orElseThrow();
        assertEquals(600, cf.defaultTimeToLive());
        assertTrue(cf.indexes().isEmpty());
    }

    private static void utf(java.io.DataOutputStream out, String s) throws IOException {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    @Test
    void aDamagedFileIsRefusedNamingIt() throws IOException {
        SchemaFile file = new SchemaFile(dir);
        file.write(sample());
        byte[] good = Files.readAllBytes(file.path());
        for (int cut : new int[] {0, 5, 12, 16, good.length - 1}) {
            Files.write(file.path(), Arrays.copyOf(good, cut));
            refused(file, "cut to " + cut + " bytes");
        }
        byte[] magic = good.clone();
        magic[0] = 'X';
        Files.write(file.path(), magic);
        refused(file, "another magic");
        byte[] version = good.clone();
        version[11] = 9;
        Files.write(file.path(), version);
        refused(file, "another version");
        for (int at = 16; at < good.length; at += 7) {
            byte[] flipped = good.clone();
            flipped[at] ^= 0x01;
            Files.write(file.path(), flipped);
            refused(file, "a bit flipped at " + at);
        }
    }

    private static void refused(SchemaFile file, String damage) {
        IOException e = assertThrows(IOException.class, file::read, damage);
        assertTrue(e.getMessage().startsWith("the schema file " + file.path() + " is damaged: "), e.getMessage());
    }
}

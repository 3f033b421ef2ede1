package sibyl.client.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.client.fake.FakeCassandra;
import sibyl.client.fake.FakeServer;

/** Scripts run through the cli's entry point against the fake server, output compared to expected text. */
class CliScriptTest {

    @TempDir
    Path dir;

    private FakeServer server;

    @BeforeEach
    void start() {
        server = FakeServer.start();
    }

    @AfterEach
    void stop() throws InterruptedException {
        server.close();
    }

    private Path script(String text) throws IOException {
        Path p = dir.resolve("script.txt");
        Files.writeString(p, text);
        return p;
    }

    private CliRunner runScript(String text) throws IOException {
        return CliRunner.run("", "-h", "127.0.0.1", "-p", String.valueOf(server.port()), "-f",
                script(text).toString());
    }

    @Test
    void metaStatements() throws IOException {
        CliRunner r = runScript("""
                show api version
                show cluster name;
                SHOW KEYSPACES
                describe keyspace Keyspace1
                """);
        assertEquals(0, r.status(), r.err());
        assertEquals("""
                Connected to: "Fake Cluster" on 127.0.0.1/PORT
                2.2.0
                Fake Cluster
                Keyspace1
                system
                Keyspace: Keyspace1
                  Column family: Standard1
                    Type: Standard
                    CompareWith: org.apache.cassandra.db.marshal.BytesType
                    Desc: Keyspace1.Standard1
                          Column Family Type: Standard
                  Column family: Standard2
                    Type: Standard
                    CompareWith: org.apache.cassandra.db.marshal.UTF8Type
                    Desc: Keyspace1.Standard2
                          Column Family Type: Standard
                  Column family: StandardByUUID1
                    Type: Standard
                    CompareWith: org.apache.cassandra.db.marshal.TimeUUIDType
                    Desc: Keyspace1.StandardByUUID1
                          Column Family Type: Standard
                  Column family: StandardLong1
                    Type: Standard
                    CompareWith: org.apache.cassandra.db.marshal.LongType
                    Desc: Keyspace1.StandardLong1
                          Column Family Type: Standard
                  Column family: Super1
                    Type: Super
                    CompareWith: org.apache.cassandra.db.marshal.BytesType
                    CompareSubcolumnsWith: org.apache.cassandra.db.marshal.BytesType
                    Desc: Keyspace1.Super1
                          Column Family Type: Super
                  Column family: Super2
                    Type: Super
                    CompareWith: org.apache.cassandra.db.marshal.UTF8Type
                    CompareSubcolumnsWith: org.apache.cassandra.db.marshal.UTF8Type
                    Desc: Keyspace1.Super2
                          Column Family Type: Super
                """, r.normalizedOut(server.port()));
    }

    @Test
    void standardColumnFamilies() throws IOException {
        CliRunner r = runScript("""
                # names by comparator
                set Keyspace1.Standard2['jsmith']['first'] = 'John'
                set Keyspace1.Standard2['jsmith']['last'] = 'Smith'
                set Keyspace1.Standard2['jsmith']['age'] = '42'
                get Keyspace1.Standard2['jsmith']
                get Keyspace1.Standard2['jsmith']['last']
                get Keyspace1.Standard2['jsmith']['middle']
                count Keyspace1.Standard2['jsmith']
                del Keyspace1.Standard2['jsmith']['age']
                count Keyspace1.Standard2['jsmith']
                del Keyspace1.Standard2['jsmith']
                get Keyspace1.Standard2['jsmith']
                set Keyspace1.Standard1['k']['name'] = 'it\\'s'
                set Keyspace1.Standard1['k'][0x00ff] = 0x0102
                get Keyspace1.Standard1['k']
                get Keyspace1.Standard1['k']['0x00ff']
                set Keyspace1.StandardLong1['k'][10] = 'ten'
                set Keyspace1.StandardLong1['k']['-3'] = 'minus three'
                get Keyspace1.StandardLong1['k']
                set Keyspace1.StandardByUUID1['k'][a4a70900-24e1-11df-8924-001ff3591711] = 'v1'
                get Keyspace1.StandardByUUID1['k']
                """);
        assertEquals(0, r.status(), r.err());
        assertEquals("", r.err());
        assertEquals("""
                Connected to: "Fake Cluster" on 127.0.0.1/PORT
                Value inserted.
                Value inserted.
                Value inserted.
                => (column=age, value=42, timestamp=T)
                => (column=first, value=John, timestamp=T)
                => (column=last, value=Smith, timestamp=T)
                Returned 3 results.
                => (column=last, value=Smith, timestamp=T)
                No such column.
                3 columns
                Column removed.
                2 columns
                Row removed.
                Returned 0 results.
                Value inserted.
                Value inserted.
                => (column=00ff, value=0x0102, timestamp=T)
                => (column=6e616d65, value=it's, timestamp=T)
                Returned 2 results.
                => (column=00ff, value=0x0102, timestamp=T)
                Value inserted.
                Value inserted.
                => (column=10, value=ten, timestamp=T)
                => (column=-3, value=minus three, timestamp=T)
                Returned 2 results.
                Value inserted.
                => (column=a4a70900-24e1-11df-8924-001ff3591711, value=v1, timestamp=T)
                Returned 1 results.
                """, r.normalizedOut(server.port()));
    }

    @Test
    void bytesTypeNamesWith0xOnRequest() throws IOException {
        CliRunner r = CliRunner.run("", "-h", "127.0.0.1", "-p", String.valueOf(server.port()), "--0x", "-f",
                script("""
                        set Keyspace1.Standard1['k'][0x00ff] = 'v'
                        set Keyspace1.Super1['k']['sc']['c'] = 'v'
                        get Keyspace1.Standard1['k']
                        get Keyspace1.Super1['k']
                        """).toString());
        assertEquals(0, r.status(), r.err());
        assertEquals("""
                Connected to: "Fake Cluster" on 127.0.0.1/PORT
                Value inserted.
                Value inserted.
                => (column=0x00ff, value=v, timestamp=T)
                Returned 1 results.
                => (super_column=0x7363, (column=0x63, value=v, timestamp=T))
                Returned 1 results.
                """, r.normalizedOut(server.port()));
    }

    @Test
    void superColumnFamilies() throws IOException {
        CliRunner r = runScript("""
                set Keyspace1.Super2['jsmith']['address']['city'] = 'Paris'
                set Keyspace1.Super2['jsmith']['address']['zip'] = '75001'
                set Keyspace1.Super2['jsmith']['phone']['home'] = '555'
                get Keyspace1.Super2['jsmith']
                get Keyspace1.Super2['jsmith']['address']
                get Keyspace1.Super2['jsmith']['address']['zip']
                count Keyspace1.Super2['jsmith']
                count Keyspace1.Super2['jsmith']['address']
                del Keyspace1.Super2['jsmith']['address']['city']
                del Keyspace1.Super2['jsmith']['phone']
                get Keyspace1.Super2['jsmith']
                set Keyspace1.Super1['k']['sc']['c'] = 'v'
                get Keyspace1.Super1['k']
                """);
        assertEquals(0, r.status(), r.err());
        assertEquals("""
                Connected to: "Fake Cluster" on 127.0.0.1/PORT
                Value inserted.
                Value inserted.
                Value inserted.
                => (super_column=address, (column=city, value=Paris, timestamp=T), (column=zip, value=75001, timestamp=T))
                => (super_column=phone, (column=home, value=555, timestamp=T))
                Returned 2 results.
                => (column=city, value=Paris, timestamp=T)
                => (column=zip, value=75001, timestamp=T)
                Returned 2 results.
                => (column=zip, value=75001, timestamp=T)
                2 super columns
                2 columns
                Column removed.
                Super column removed.
                => (super_column=address, (column=zip, value=75001, timestamp=T))
                Returned 1 results.
                Value inserted.
                => (super_column=7363, (column=63, value=v, timestamp=T))
                Returned 1 results.
                """, r.normalizedOut(server.port()));
    }

    @Test
    void connectStatementAndStdinInput() {
        String statements = "connect 127.0.0.1/" + server.port() + "\n"
                + "set Keyspace1.Standard2['a']['b'] = 'c'\n"
                + "get Keyspace1.Standard2['a']['b']\n"
                + "quit\n"
                + "show cluster name\n";
        CliRunner r = CliRunner.run(statements);
        assertEquals(0, r.status(), r.err());
        assertEquals("""
                Connected to: "Fake Cluster" on 127.0.0.1/PORT
                Value inserted.
                => (column=b, value=c, timestamp=T)
                """, r.normalizedOut(server.port()));
        assertEquals(1, server.handler().rowCount(FakeCassandra.KEYSPACE, "Standard2"));
    }

    @Test
    void framedTransport() throws Exception {
        try (FakeServer framed = FakeServer.start(new FakeCassandra(), true)) {
            CliRunner r = CliRunner.run("show api version\n", "--framed", "-h", "127.0.0.1", "-p",
                    String.valueOf(framed.port()));
            assertEquals(0, r.status(), r.err());
            assertEquals("Connected to: \"Fake Cluster\" on 127.0.0.1/PORT\n2.2.0\n", r.normalizedOut(framed.port()));
        }
    }

    @Test
    void aWideRowIsPrintedWhole() throws IOException {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 1500; i++) {
            sb.append(String.format("set Keyspace1.Standard2['wide']['c%04d'] = 'v'%n", i));
        }
        sb.append("get Keyspace1.Standard2['wide']\n");
        CliRunner r = runScript(sb.toString());
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().endsWith("Returned 1500 results.\n"), r.out().substring(r.out().length() - 100));
        assertEquals(1500, r.out().lines().filter(l -> l.startsWith("=> (column=c")).distinct().count());
    }
}

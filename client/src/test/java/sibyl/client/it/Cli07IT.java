package sibyl.client.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sibyl.iface.v20.Cassandra;
import sibyl.iface.v20.ColumnPath;
import sibyl.iface.v20.ConsistencyLevel;

/**
 * bin/cli --dialect 0.7 as a user of Cassandra 0.7 to 1.2's cli runs it: scripts of that cli's statements against
 * a node started with bin/server, their output read as the user reads it (timestamps and schema versions, which
 * change from run to run, replaced by fixed text), and what they wrote read back by a 0.7+ Thrift client.
 */
class Cli07IT {
    @TempDir
    static Path dir;

    private static LocalNode node;

    @BeforeAll
    static void startNode() throws Exception {
        node = new LocalNode(dir);
        node.start("server");
    }

    @AfterAll
    static void stopNode() throws Exception {
        if (node != null) {
            node.stop();
        }
    }

    record Result(int status, String out, String err) {
        /** stdout with each timestamp and schema version replaced by fixed text. */
        String normalized() {
            return out.replaceAll("timestamp=\\d+", "timestamp=T")
                    .replaceAll("(?m)^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$", "<schema version>");
        }
    }

    /** bin/cli --dialect 0.7 against the node with {@code arguments}, {@code stdin} as its input. */
    private static Result cli(String stdin, String... arguments) throws Exception {
        return cli(node.thriftPort(), stdin, arguments);
    }

    /** bin/cli --dialect 0.7 against the Thrift port {@code port} of 127.0.0.1. */
    private static Result cli(int port, String stdin, String... arguments) throws Exception {
        List<String> command = new ArrayList<>(List.of(LocalNode.home().resolve("bin/cli").toString(), "--dialect",
                "0.7", "-h", "127.0.0.1", "-p", String.valueOf(port)));
        command.addAll(List.of(arguments));
        Path out = Files.createTempFile(dir, "out", ".txt");
        Path err = Files.createTempFile(dir, "err", ".txt");
        Path in = Files.writeString(Files.createTempFile(dir, "in", ".txt"), stdin);
        Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile())
                .redirectInput(in.toFile()).start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "bin/cli finished");
        return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
    }

    private static Result script(String text) throws Exception {
        return script(node.thriftPort(), text);
    }

    private static Result script(int port, String text) throws Exception {
        Path file = Files.writeString(Files.createTempFile(dir, "script", ".txt"), text);
        return cli(port, "", "-f", file.toString());
    }

    @Test
    void schemaTypedColumnFamiliesASuperColumnFamilyTtlDescribeAndDrop() throws Exception {
        Result r = script("""
                show api version;
                create keyspace CliDemo with placement_strategy = 'org.apache.cassandra.locator.SimpleStrategy'
                    and strategy_options = {replication_factor:1};
                use CliDemo;
                create column family Users with comparator = UTF8Type and key_validation_class = UTF8Type
                    and default_validation_class = UTF8Type
                    and column_metadata = [{column_name: age, validation_class: LongType}];
                set Users['jsmith']['first'] = 'John';
                set Users['jsmith']['age'] = 42;
                set Users[jsmith][coupon] = 'SAVE20' with ttl = 86400;
                get Users['jsmith'];
                get Users['jsmith']['age'];
                get Users['jsmith']['missing'];
                count Users['jsmith'];
                -- a super column family: super columns by LongType, subcolumns by UTF8Type
                create column family Posts with column_type = Super and comparator = LongType
                    and subcomparator = UTF8Type and key_validation_class = UTF8Type
                    and default_validation_class = UTF8Type;
                set Posts['jsmith'][1]['title'] = 'Hello'; set Posts['jsmith'][1]['body'] = 'First post';
                set Posts['jsmith'][2]['title'] = 'Again';
                get Posts['jsmith'];
                get Posts['jsmith'][1];
                get Posts['jsmith'][2]['title'];
                count Posts['jsmith'];
                count Posts['jsmith'][1];
                del Posts['jsmith'][1]['body'];
                del Posts['jsmith'][2];
                list Posts;
                del Users['jsmith']['first'];
                list Users limit 10;
                create column family Raw;
                set Raw['cafe'][utf8('name')] = bytes('00ff');
                list Raw;
                assume Raw comparator as utf8;
                get Raw['cafe'];
                update column family Users with comment = 'people' and gc_grace = 3600;
                describe CliDemo;
                truncate Raw;
                count Raw['cafe'];
                drop column family Raw;
                del Users['jsmith'];
                get Users['jsmith'];
                """);
        assertEquals(0, r.status(), r.err());
        assertEquals("", r.err());
        assertEquals("""
                Connected to: "Test Cluster" on 127.0.0.1/PORT
                20.1.0
                <schema version>
                Authenticated to keyspace: CliDemo
                <schema version>
                Value inserted.
                Value inserted.
                Value inserted.
                => (column=age, value=42, timestamp=T)
                => (column=coupon, value=SAVE20, timestamp=T, ttl=86400)
                => (column=first, value=John, timestamp=T)
                Returned 3 results.
                => (column=age, value=42, timestamp=T)
                Value was not found
                3 columns
                <schema version>
                Value inserted.
                Value inserted.
                Value inserted.
                => (super_column=1,
                     (column=body, value=First post, timestamp=T)
                     (column=title, value=Hello, timestamp=T))
                => (super_column=2,
                     (column=title, value=Again, timestamp=T))
                Returned 2 results.
                => (column=body, value=First post, timestamp=T)
                => (column=title, value=Hello, timestamp=T)
                Returned 2 results.
                => (column=title, value=Again, timestamp=T)
                2 columns
                2 columns
                column removed.
                column removed.
                Using default limit of 100
                -------------------
                RowKey: jsmith
                => (super_column=1,
                     (column=title, value=Hello, timestamp=T))

                1 Row Returned.
                column removed.
                -------------------
                RowKey: jsmith
                => (column=age, value=42, timestamp=T)
                => (column=coupon, value=SAVE20, timestamp=T, ttl=86400)

                1 Row Returned.
                <schema version>
                Value inserted.
                Using default limit of 100
                -------------------
                RowKey: cafe
                => (column=6e616d65, value=00ff, timestamp=T)

                1 Row Returned.
                Assumption for column family 'Raw' added successfully.
                => (column=name, value=00ff, timestamp=T)
                Returned 1 results.
                <schema version>
                Keyspace: CliDemo:
                  Replication Strategy: org.apache.cassandra.locator.SimpleStrategy
                  Durable Writes: true
                    Options: [replication_factor:1]
                  Column Families:
                    ColumnFamily: Posts (Super)
                      Key Validation Class: org.apache.cassandra.db.marshal.UTF8Type
                      Default column value validator: org.apache.cassandra.db.marshal.UTF8Type
                      Columns sorted by: org.apache.cassandra.db.marshal.LongType/org.apache.cassandra.db.marshal.UTF8Type
                      GC grace seconds: 864000
                      Caching: keys_only
                      Default time to live: 0
                      Bloom Filter FP chance: default
                    ColumnFamily: Raw
                      Key Validation Class: org.apache.cassandra.db.marshal.BytesType
                      Default column value validator: org.apache.cassandra.db.marshal.BytesType
                      Columns sorted by: org.apache.cassandra.db.marshal.BytesType
                      GC grace seconds: 864000
                      Caching: keys_only
                      Default time to live: 0
                      Bloom Filter FP chance: default
                    ColumnFamily: Users
                    "people"
                      Key Validation Class: org.apache.cassandra.db.marshal.UTF8Type
                      Default column value validator: org.apache.cassandra.db.marshal.UTF8Type
                      Columns sorted by: org.apache.cassandra.db.marshal.UTF8Type
                      GC grace seconds: 3600
                      Caching: keys_only
                      Default time to live: 0
                      Bloom Filter FP chance: default
                      Column Metadata:
                        Column Name: age
                          Validation Class: org.apache.cassandra.db.marshal.LongType
                Raw truncated.
                0 columns
                <schema version>
                row removed.
                Returned 0 results.
                """.replace("PORT", String.valueOf(node.thriftPort())), r.normalized());

        Result after = script("show keyspaces;\ndrop keyspace CliDemo;\nshow keyspaces;\n");
        assertEquals(0, after.status(), after.err());
        String[] halves = after.normalized().split("<schema version>\n");
        assertTrue(halves[0].contains("Keyspace: CliDemo:\n"), halves[0]);
        assertTrue(!halves[1].contains("Keyspace: CliDemo:"), "dropped: " + halves[1]);
        assertTrue(halves[1].contains("Keyspace: Keyspace1:\n"), halves[1]);
    }

    @Test
    void typedValuesReachTheServerAsTheirTypesBytes() throws Exception {
        Result r = script("""
                create keyspace CliTypes;
                use CliTypes;
                create column family Scores with comparator = LongType and key_validation_class = LongType
                    and default_validation_class = IntegerType
                    and column_metadata = [{column_name: 2, validation_class: UTF8Type}];
                set Scores[7][1] = 12345678901234567890;
                set Scores[7][2] = 'two';
                set Scores[7][3] = long(-1);
                get Scores[7];
                """);
        assertEquals(0, r.status(), r.err());
        assertEquals("""
                => (column=1, value=12345678901234567890, timestamp=T)
                => (column=2, value=two, timestamp=T)
                => (column=3, value=-1, timestamp=T)
                Returned 3 results.
                """, r.normalized().substring(r.normalized().lastIndexOf("Value inserted.\n") + 16));
        Cassandra.Client client = Cassandra311Peer.framedClient(node.thriftPort());
        try {
            client.set_keyspace("CliTypes");
            assertEquals(ByteBuffer.wrap(new java.math.BigInteger("12345678901234567890").toByteArray()),
                    value(client, 1));
            assertEquals(ByteBuffer.wrap("two".getBytes(StandardCharsets.UTF_8)), value(client, 2));
            assertEquals(ByteBuffer.allocate(8).putLong(0, -1), value(client, 3));
        } finally {
            Cassandra311Peer.close(client);
        }
    }

    /** The value of column {@code name} (LongType) of row 7 (LongType) of CliTypes.Scores. */
    private static ByteBuffer value(Cassandra.Client client, long name) throws Exception {
        return client.get(ByteBuffer.allocate(8).putLong(0, 7),
                new ColumnPath("Scores").setColumn(ByteBuffer.allocate(8).putLong(0, name)), ConsistencyLevel.ONE)
                .getColumn().bufferForValue();
    }

    @Test
    void batchModeStopsAtTheFirstErrorWithExitStatus1() throws Exception {
        Result setup = script("""
                create keyspace CliErrors;
                use CliErrors;
                create column family Typed with comparator = UTF8Type and key_validation_class = UTF8Type
                    and column_metadata = [{column_name: age, validation_class: LongType}];
                """);
        assertEquals(0, setup.status(), setup.err());

        Result badLiteral = script("""
                use CliErrors;
                set Typed['k']['age'] = 'ten';
                set Typed['k']['after'] = utf8('never');
                """);
        assertEquals(1, badLiteral.status());
        assertTrue(badLiteral.err().contains(":2: error: bad value 'ten': 'ten' is not a decimal 64-bit number (LongType)"),
                badLiteral.err());

        Result unknown = script("use CliErrors;\n\nfrobnicate Typed;\nset Typed['k']['after'] = utf8('never');\n");
        assertEquals(1, unknown.status());
        assertTrue(unknown.err().contains(":3: error: unknown command 'frobnicate'; type 'help;' for the list"),
                unknown.err());

        Result noKeyspace = script("get Typed['k'];\n");
        assertEquals(1, noKeyspace.status());
        assertTrue(noKeyspace.err().contains(":1: error: no keyspace in use; 'use KEYSPACE;' first"), noKeyspace.err());

        Result refused = script("use NoSuchKeyspace;\n");
        assertEquals(1, refused.status());
        assertTrue(refused.err().contains(":1: error: Keyspace 'NoSuchKeyspace' does not exist"), refused.err());

        Result check = script("use CliErrors;\nget Typed['k'];\n");
        assertEquals(0, check.status(), check.err());
        assertTrue(check.out().endsWith("Returned 0 results.\n"), "nothing after the errors ran: " + check.out());
    }

    @Test
    void interactivelyAnErrorIsPrintedAndTheShellGoesOn() throws Exception {
        Result r = cli("""
                use Keyspace1;
                get Standard2['k'];
                get Standard2[utf8('k')]
                    ;
                quit;
                show api version;
                """, "--interactive");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.err().contains("error: bad key 'k': cannot parse 'k' as hex bytes"), r.err());
        assertTrue(r.out().contains("[default@Keyspace1] ...\tReturned 0 results.\n"), r.out());
        assertTrue(!r.out().contains("20.1.0"), "quit ends the session: " + r.out());
    }

    /**
     * The same script through a real Cassandra 3.11 and through Sibyl prints the same, but for the line saying
     * where it connected (describe is left out: 3.11's CfDefs carry settings Sibyl's do not).
     */
    @Test
    void aScriptPrintsTheSameOnCassandra311() throws Exception {
        String text = """
                create keyspace CliAlike with placement_strategy = 'SimpleStrategy'
                    and strategy_options = {replication_factor:1};
                use CliAlike;
                create column family Users with comparator = UTF8Type and key_validation_class = UTF8Type
                    and default_validation_class = UTF8Type
                    and column_metadata = [{column_name: age, validation_class: LongType}];
                set Users['jsmith']['first'] = 'John'; set Users['jsmith']['age'] = 42;
                set Users['jsmith']['coupon'] = 'SAVE20' with ttl = 86400;
                set Users['adoe']['first'] = 'Ann';
                get Users['jsmith']; get Users['jsmith']['age']; get Users['jsmith']['missing'];
                count Users['jsmith'];
                create column family Posts with column_type = Super and comparator = LongType
                    and subcomparator = UTF8Type and default_validation_class = UTF8Type;
                set Posts[utf8('jsmith')][1]['title'] = 'Hello'; set Posts[utf8('jsmith')][2]['title'] = 'Again';
                get Posts[utf8('jsmith')]; count Posts[utf8('jsmith')][1];
                del Posts[utf8('jsmith')][2]; get Posts[utf8('jsmith')];
                create column family Raw;
                set Raw['cafe']['beef'] = '00ff'; set Raw[timeuuid()][long(1)] = utf8('x');
                count Raw['cafe'];
                list Users; list Users limit 1; list Users['jsmith':]; list Users[:'jsmith'] limit 5;
                del Users['jsmith']['first']; del Users['adoe']; get Users['jsmith']; get Users['adoe'];
                truncate Raw; get Raw['cafe'];
                drop column family Raw; drop keyspace CliAlike;
                """;
        Cassandra311Peer reference = Cassandra311Peer.shared();
        Result expected = script(reference.thriftPort(), text);
        Result actual = script(text);
        assertEquals(0, expected.status(), expected.err());
        assertEquals(0, actual.status(), actual.err());
        System.out.println("Cli07IT: Cassandra 3.11 printed:\n" + expected.out());
        assertEquals(afterConnecting(expected.normalized()), afterConnecting(actual.normalized()));
    }

    private static String afterConnecting(String out) {
        assertTrue(out.startsWith("Connected to: "), out);
        return out.substring(out.indexOf('\n') + 1);
    }

    /**
     * Under SimpleAuthenticator: {@code use KS USER 'PASSWORD';} and {@code -k KS -u USER -pw PASSWORD} log in (the
     * shipped passwd.properties and access.properties let dilbert use Keyspace1); a wrong password is refused.
     */
    @Test
    void useWithCredentialsLogsIn(@TempDir Path authDir) throws Exception {
        String conf = Files.readString(LocalNode.home().resolve("conf/storage-conf.xml"))
                .replaceFirst("<Authenticator>[^<]*</Authenticator>",
                        "<Authenticator>org.apache.cassandra.auth.SimpleAuthenticator</Authenticator>");
        LocalNode secured = LocalNode.configuredBy(authDir, conf);
        for (String file : List.of("passwd.properties", "access.properties")) {
            Files.copy(LocalNode.home().resolve("conf").resolve(file), authDir.resolve("conf").resolve(file));
        }
        secured.start("secured");
        try {
            int port = secured.thriftPort();
            Result ok = script(port, "use Keyspace1 dilbert 'nomoovertime';\nget Standard2[utf8('k')];\n");
            assertEquals(0, ok.status(), ok.err());
            assertTrue(ok.out().endsWith("Authenticated to keyspace: Keyspace1\nReturned 0 results.\n"), ok.out());

            Path empty = Files.writeString(Files.createTempFile(dir, "script", ".txt"), "get Standard2[utf8('k')];\n");
            Result options = cli(port, "", "-k", "Keyspace1", "-u", "dilbert", "-pw", "nomoovertime", "-f",
                    empty.toString());
            assertEquals(0, options.status(), options.err());
            assertTrue(options.out().endsWith("Authenticated to keyspace: Keyspace1\nReturned 0 results.\n"),
                    options.out());

            Result wrong = script(port, "use Keyspace1 dilbert 'guess';\nget Standard2[utf8('k')];\n");
            assertEquals(1, wrong.status(), wrong.out());
            assertTrue(wrong.err().contains(":1: error: authentication failed: "), wrong.err());
            assertTrue(!wrong.out().contains("Returned"), wrong.out());
        } finally {
            secured.stop();
        }
    }

    @Test
    void helpListsTheStatementsAndTheOptionNamesTheDialect() throws Exception {
        Result help = script("help;\n");
        assertEquals(0, help.status(), help.err());
        assertTrue(help.out().contains("create column family CF [with ATTR = V and ...];"), help.out());
        Path usage = dir.resolve("usage.txt");
        Process p = new ProcessBuilder(LocalNode.home().resolve("bin/cli").toString(), "--help")
                .redirectErrorStream(true).redirectOutput(usage.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertTrue(Files.readString(usage).contains("--dialect D"), Files.readString(usage));
    }
}

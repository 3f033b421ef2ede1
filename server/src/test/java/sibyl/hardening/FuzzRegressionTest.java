package sibyl.hardening;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.ColumnPath;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.apache.thrift.TApplicationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import sibyl.it.NodeExtension;

/**
 * Cases {@link ProtocolFuzzTest} found, kept as the exact bytes it sent, each on a fresh connection to a real node.
 * Each either must be answered in step, without an internal error, or must close its connection; a client that was
 * connected all along must be served throughout.
 */
class FuzzRegressionTest {
    @RegisterExtension
    static final NodeExtension NODE = NodeExtension.embedded();
    @NodeExtension.Connected(framed = true)
    static Cassandra.Client bystander;

    /** What the server must do with a case. */
    enum Outcome { ANSWERED, CLOSED }

    static Stream<Arguments> cases() {
        return Stream.of(
                // The bystanders' first write: insert into a standard column family, no super column. Failed with
                // INTERNAL_ERROR (a NullPointerException building the row mutation) before eda52bb.
                Arguments.of("insert into Standard1", false, Outcome.ANSWERED,
                        "8001000100000006696e73657274000000110b0001000000094b65797370616365310b0002000000096279"
                                + "7374616e6465720c00030b0003000000095374616e64617264310b0005000000047365656e000b0004"
                                + "0000000776616c756520300a000500000000000000000800060000000100"),
                // A batch_mutate, old-style header, whose empty mutation map names value type 0x11. libthrift's own
                // reader would accept an empty map of any types; the server refuses unknown type codes even there
                // (only STOP and VOID are allowed for empty containers), as documented in MessageScanner.
                Arguments.of("empty map with element type 0x11", false, Outcome.CLOSED,
                        "0000000c62617463685f6d757461746501411221b30b0001000000000d00020b11000000000800030000"
                                + "000100"),
                // batch_mutate on keyspace "system" whose mutation map holds a map where a list of mutations
                // belongs (a type byte flipped from 0f to 0d). The generated reader, not checking element types,
                // ran past the end of the message, and the server answered INTERNAL_ERROR; now PROTOCOL_ERROR,
                // as for other arguments libthrift cannot read. Found with seed 1920842692033.
                Arguments.of("mutation map holding a map for a list", true, Outcome.ANSWERED,
                        "00000050800100010000000c62617463685f6d7574617465447106c30b00010000000673797374656d0d0002"
                                + "0b0d00000001000000036b00020b0d00000001000000036b33320b0f000000000800030000000100"),
                // The same with another map of maps, at consistency level ANY. Found with seed 20261123 (1,000,000
                // cases), thread 1, case 3272.
                Arguments.of("mutation map holding a map for a list, again", true, Outcome.ANSWERED,
                        "0000004a800100010000000c62617463685f6d75746174654af1bd080b0001000000000d00020b0d000000"
                                + "01000000036b31370b0d00000001000000036b31370b0f000000000800030000000600"),
                // get_slice whose predicate's column_names is a list of bytes, not of binaries, followed by a
                // second predicate. Found with seed 20261123 (1,000,000 cases), thread 2, case 190566.
                Arguments.of("column names as a list of bytes", false, Outcome.ANSWERED,
                        "80010001000000096765745f736c696365a014659c0b00010000000673797374656d0b0002000000036b31"
                                + "380c00030b0003000000044e6f7065000c00040f000103000000044e6f7065000c00040f00010b0000"
                                + "0000000800050000000100"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void foundCase(String name, boolean framed, Outcome outcome, String hex) throws Exception {
        byte[] bytes = Wire.unhex(hex);
        RequestShape.Call call = RequestShape.answerable(framed ? java.util.Arrays.copyOfRange(bytes, 4, bytes.length)
                : bytes, framed, true);
        assertEquals(outcome == Outcome.ANSWERED, call != null, "the fuzzer's own verdict on the bytes");
        try (RawConnection connection = new RawConnection(NODE.node().port(), framed)) {
            connection.send(bytes);
            if (outcome == Outcome.ANSWERED) {
                Wire.Reply reply = connection.readReply();
                assertNotNull(reply, "answered");
                assertEquals(call.seqId(), reply.header().seqid);
                assertEquals(call.method(), reply.header().name);
                if (reply.isException()) {
                    TApplicationException e = reply.applicationException();
                    assertTrue(e.getType() != TApplicationException.INTERNAL_ERROR, e.getMessage());
                }
            } else {
                assertTrue(connection.halfCloseAndAwaitClose(), "closed");
            }
        }
        assertEquals("2.2.0", bystander.describe_version());
    }

    @Test
    void theFoundInsertIsStored() throws Exception {
        try (RawConnection connection = new RawConnection(NODE.node().port(), false)) {
            connection.send(Wire.unhex((String) cases().findFirst().orElseThrow().get()[3]));
            Wire.Reply reply = connection.readReply();
            assertFalse(reply.isException());
            assertEquals(new Cassandra.insert_result(), reply.result(new Cassandra.insert_result()));
        }
        ColumnPath path = new ColumnPath("Standard1").setColumn("seen".getBytes(StandardCharsets.UTF_8));
        assertArrayEquals("value 0".getBytes(StandardCharsets.UTF_8),
                bystander.get("Keyspace1", "bystander", path, ConsistencyLevel.ONE).getColumn().getValue());
    }

    @Test
    void nestingAtTheLimitIsAnsweredAndPastItClosed() throws Exception {
        HostileInputs inputs = new HostileInputs(new java.util.Random(1));
        for (int depth : new int[] {RequestShape.MAX_NESTING, RequestShape.MAX_NESTING + 1}) {
            byte[] message = inputs.nested(depth, depth);
            RequestShape.Call call = RequestShape.answerable(message, false, true);
            assertEquals(depth <= RequestShape.MAX_NESTING, call != null, "nesting " + depth);
            try (RawConnection connection = new RawConnection(NODE.node().port(), false)) {
                connection.send(message);
                if (call != null) {
                    Wire.Reply reply = connection.readReply();
                    assertNotNull(reply, "nesting " + depth + " answered");
                    assertEquals(depth, reply.header().seqid);
                } else {
                    assertTrue(connection.halfCloseAndAwaitClose(), "nesting " + depth + " closed");
                }
            }
        }
    }
}

package sibyl.transport;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.Column;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.ColumnParent;
import org.apache.cassandra.thrift.ColumnPath;
import org.apache.cassandra.thrift.ConsistencyLevel;
import org.apache.cassandra.thrift.Deletion;
import org.apache.cassandra.thrift.Mutation;
import org.apache.cassandra.thrift.SlicePredicate;
import org.apache.cassandra.thrift.SliceRange;
import org.apache.cassandra.thrift.SuperColumn;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.protocol.TType;
import org.junit.jupiter.api.Test;

class MessageScannerTest {
    private static final int LIMIT = 4096;

    /** Real requests as libthrift writes them, strict and old-style, covering every type Cassandra 0.6 sends. */
    private static List<byte[]> realMessages() {
        List<byte[]> messages = new ArrayList<>();
        for (boolean strict : new boolean[] {true, false}) {
            messages.add(WireBytes.call("describe_version", 1, new Cassandra.describe_version_args(), strict));
            messages.add(WireBytes.call("get_slice", 2, new Cassandra.get_slice_args("Keyspace1", "row",
                    new ColumnParent("Standard1"), new SlicePredicate().setSlice_range(
                            new SliceRange(bytes("a"), bytes("z"), true, 100)), ConsistencyLevel.QUORUM), strict));
            messages.add(WireBytes.call("insert", 3, new Cassandra.insert_args("Keyspace1", "row",
                    new ColumnPath("Standard1").setColumn(bytes("name")), bytes("value"), 1234L,
                    ConsistencyLevel.ONE), strict));
            messages.add(WireBytes.call("multiget", 4, new Cassandra.multiget_args("Keyspace1",
                    List.of("a", "b", ""), new ColumnPath("Standard1"), ConsistencyLevel.ONE), strict));
            messages.add(WireBytes.call("batch_mutate", 5, new Cassandra.batch_mutate_args("Keyspace1", Map.of(
                    "row1", Map.of("Super1", List.of(
                            new Mutation().setColumn_or_supercolumn(new ColumnOrSuperColumn().setSuper_column(
                                    new SuperColumn(bytes("sc"), List.of(new Column(bytes("c1"), bytes("v1"), 1),
                                            new Column(bytes("c2"), bytes(""), 2))))),
                            new Mutation().setDeletion(new Deletion(3).setPredicate(
                                    new SlicePredicate().setColumn_names(List.of(bytes("c3"), bytes("c4")))))))),
                    ConsistencyLevel.ALL), strict));
        }
        // Types the IDL does not use but the protocol has, in an unknown field: byte, i16, double, set, map.
        messages.add(new WireBytes().strictHeader("describe_version", TMessageType.CALL, 6)
                .field(TType.BYTE, 1).i8(-1)
                .field(TType.I16, 2).i16(-2)
                .field(TType.DOUBLE, 3).i64(Double.doubleToLongBits(2.5))
                .field(TType.SET, 4).i8(TType.I16).i32(2).i16(1).i16(2)
                .field(TType.MAP, 5).i8(TType.I32).i8(TType.LIST).i32(2)
                        .i32(1).i8(TType.BOOL).i32(3).i8(1).i8(0).i8(1)
                        .i32(2).i8(TType.STRUCT).i32(1).field(TType.STRING, 1).string("x").stop()
                .field(TType.LIST, 6).i8(TType.STOP).i32(0) // an empty list may name no element type
                .field(TType.MAP, 7).i8(TType.VOID).i8(TType.VOID).i32(0)
                .stop().toArray());
        return messages;
    }

    @Test
    void findsTheExactEndOfRealMessagesFollowedByMore() throws Exception {
        for (byte[] message : realMessages()) {
            byte[] withNext = WireBytes.concat(message, message);
            assertEquals(message.length, scan(withNext, LIMIT), describe(message));
        }
    }

    @Test
    void readsTheHeader() throws Exception {
        for (boolean strict : new boolean[] {true, false}) {
            byte[] message = WireBytes.call("describe_keyspaces", 77, new Cassandra.describe_keyspaces_args(), strict);
            MessageScanner scanner = new MessageScanner();
            scanner.reset(LIMIT, false);
            assertEquals(message.length, scanner.scan(Unpooled.wrappedBuffer(message), 0, message.length));
            assertEquals("describe_keyspaces",
                    new String(message, scanner.nameOffset(), scanner.nameLength(), UTF_8));
            assertEquals(77, scanner.seqId());
            assertEquals(TMessageType.CALL, scanner.messageType());
        }
    }

    @Test
    void everyProperPrefixNeedsMore() throws Exception {
        for (byte[] message : realMessages()) {
            for (int length = 0; length < message.length; length++) {
                MessageScanner scanner = new MessageScanner();
                scanner.reset(LIMIT, false);
                assertEquals(MessageScanner.NEED_MORE, scanner.scan(Unpooled.wrappedBuffer(message), 0, length),
                        "prefix of " + length + " bytes of " + describe(message));
            }
        }
    }

    @Test
    void resumesByteByByte() throws Exception {
        for (byte[] message : realMessages()) {
            MessageScanner scanner = new MessageScanner();
            scanner.reset(LIMIT, false);
            ByteBuf buf = Unpooled.wrappedBuffer(message);
            for (int length = 0; length < message.length; length++) {
                assertEquals(MessageScanner.NEED_MORE, scanner.scan(buf, 0, length), describe(message));
            }
            assertEquals(message.length, scanner.scan(buf, 0, message.length), describe(message));
        }
    }

    /** The decoder's buffer may be copied or compacted between calls; the scanner must only use offsets. */
    @Test
    void resumesInACopyAtAnotherIndexAfterRandomSplits() throws Exception {
        long seed = System.nanoTime();
        System.out.println("resumesInACopyAtAnotherIndexAfterRandomSplits seed " + seed);
        Random random = new Random(seed);
        for (byte[] message : realMessages()) {
            MessageScanner scanner = new MessageScanner();
            scanner.reset(LIMIT, false);
            int length = 0;
            int result = MessageScanner.NEED_MORE;
            while (result == MessageScanner.NEED_MORE) {
                assertTrue(length < message.length, "seed " + seed + ": did not end at " + describe(message));
                length = Math.min(message.length, length + 1 + random.nextInt(8));
                int start = random.nextInt(16);
                ByteBuf moved = Unpooled.buffer(start + length).writeZero(start).writeBytes(message, 0, length);
                result = scanner.scan(moved, start, length);
            }
            assertEquals(message.length, result, "seed " + seed + ": " + describe(message));
        }
    }

    @Test
    void oldStyleHeaderWithEmptyName() throws Exception {
        byte[] message = new WireBytes().oldHeader("", TMessageType.CALL, 1).stop().toArray();
        assertEquals(message.length, scan(message, LIMIT));
    }

    @Test
    void onewayIsACall() throws Exception {
        byte[] message = new WireBytes().strictHeader("x", TMessageType.ONEWAY, 1).stop().toArray();
        assertEquals(message.length, scan(message, LIMIT));
    }

    @Test
    void refusesAStringLongerThanTheLimitAsSoonAsItsLengthIsSeen() {
        byte[] start = new WireBytes().strictHeader("get_string_property", TMessageType.CALL, 1)
                .field(TType.STRING, 1).i32(LIMIT).toArray(); // no string bytes follow
        assertRefused(start, LIMIT, "declared string length 4096", "exceeds the 4096-byte message limit");
    }

    @Test
    void refusesAStringLongerThanItsFrame() {
        byte[] message = new WireBytes().strictHeader("get_string_property", TMessageType.CALL, 1)
                .field(TType.STRING, 1).i32(100).raw("abc".getBytes(UTF_8)).stop().toArray();
        MessageScanner scanner = new MessageScanner();
        scanner.reset(message.length, true);
        MalformedMessageException refused = assertThrows(MalformedMessageException.class,
                () -> scanner.scan(Unpooled.wrappedBuffer(message), 0, message.length));
        assertTrue(refused.getMessage().contains("does not fit in its " + message.length + "-byte frame"),
                refused.getMessage());
    }

    @Test
    void refusesNegativeSizes() {
        WireBytes header = new WireBytes().strictHeader("m", TMessageType.CALL, 1);
        assertRefused(new WireBytes().raw(header.toArray()).field(TType.STRING, 1).i32(-1).toArray(), LIMIT,
                "negative string length -1");
        assertRefused(new WireBytes().raw(header.toArray()).field(TType.LIST, 1).i8(TType.I32).i32(-5).toArray(),
                LIMIT, "negative list size -5");
        assertRefused(new WireBytes().raw(header.toArray()).field(TType.MAP, 1).i8(TType.I32).i8(TType.I32)
                .i32(Integer.MIN_VALUE).toArray(), LIMIT, "negative map size");
        assertRefused(new WireBytes().i32(0x80010001).i32(-3).toArray(), LIMIT, "negative method name length -3");
    }

    @Test
    void refusesContainersThatCannotFitInTheBytesLeft() {
        WireBytes header = new WireBytes().strictHeader("m", TMessageType.CALL, 1);
        // 1000 i64 need 8000 bytes, more than the limit, though 1000 alone is small.
        assertRefused(new WireBytes().raw(header.toArray()).field(TType.LIST, 1).i8(TType.I64).i32(1000).toArray(),
                LIMIT, "declared list size 1000");
        assertRefused(new WireBytes().raw(header.toArray()).field(TType.SET, 1).i8(TType.STRUCT)
                .i32(Integer.MAX_VALUE).toArray(), LIMIT, "declared set size 2147483647");
        assertRefused(new WireBytes().raw(header.toArray()).field(TType.MAP, 1).i8(TType.STRING).i8(TType.STRING)
                .i32(LIMIT / 8).toArray(), LIMIT, "declared map size 512");
    }

    @Test
    void refusesAMessageThatGrowsPastTheLimit() {
        WireBytes message = new WireBytes().strictHeader("m", TMessageType.CALL, 1);
        while (message.length() <= LIMIT) {
            message.field(TType.I32, 1).i32(0);
        }
        assertRefused(message.toArray(), LIMIT, "message exceeds the 4096-byte limit");
    }

    @Test
    void refusesAMethodNameLongerThanTheLimit() {
        assertRefused(new WireBytes().i32(0x80010001).i32(LIMIT).toArray(), LIMIT,
                "declared method name length 4096");
        assertRefused(new WireBytes().i32(LIMIT + 1).toArray(), LIMIT, "declared method name length 4097");
    }

    @Test
    void refusesUnknownTypes() {
        WireBytes header = new WireBytes().strictHeader("m", TMessageType.CALL, 1);
        for (byte type : new byte[] {TType.VOID, 5, 7, 9, TType.ENUM, 17, 0x7f, -1}) {
            assertRefused(new WireBytes().raw(header.toArray()).field(type, 1).toArray(), LIMIT,
                    "unknown field type " + type);
            assertRefused(new WireBytes().raw(header.toArray()).field(TType.LIST, 1).i8(type).i32(1).toArray(),
                    LIMIT, "unknown list type " + type);
        }
        assertRefused(new WireBytes().raw(header.toArray()).field(TType.SET, 1).i8(TType.STOP).i32(1).toArray(),
                LIMIT, "unknown set type 0");
        assertRefused(new WireBytes().raw(header.toArray()).field(TType.MAP, 1).i8(TType.I32).i8(9).i32(0)
                .toArray(), LIMIT, "unknown map value type 9");
    }

    @Test
    void refusesHeadersThatAreNotVersion1Calls() {
        assertRefused(new WireBytes().i32(0x80020001).toArray(), LIMIT, "not TBinaryProtocol version 1");
        assertRefused(new WireBytes().i32(0xff010001).toArray(), LIMIT, "not TBinaryProtocol version 1");
        assertRefused(new WireBytes().strictHeader("m", TMessageType.REPLY, 1).toArray(), LIMIT,
                "message type 2 is not a call");
        assertRefused(new WireBytes().oldHeader("m", TMessageType.EXCEPTION, 1).toArray(), LIMIT,
                "message type 3 is not a call");
    }

    @Test
    void nestsUpToTheDepthLimitAndNoFurther() throws Exception {
        // The argument struct is level 1, so 63 nested structs reach the limit of 64.
        byte[] deepest = nestedStructs(MessageScanner.DEFAULT_MAX_DEPTH - 1);
        assertEquals(deepest.length, scan(deepest, LIMIT));
        assertRefused(nestedStructs(MessageScanner.DEFAULT_MAX_DEPTH), LIMIT, "nested deeper than 64 levels");
        // Containers count as levels too.
        WireBytes lists = new WireBytes().strictHeader("m", TMessageType.CALL, 1).field(TType.LIST, 1);
        for (int level = 0; level < MessageScanner.DEFAULT_MAX_DEPTH; level++) {
            lists.i8(TType.LIST).i32(1);
        }
        assertRefused(lists.toArray(), LIMIT, "nested deeper than 64 levels");
    }

    /** Random bytes and damaged real messages: either refused, incomplete, or a length within what was given. */
    @Test
    void neverFailsOtherwiseOnArbitraryBytes() {
        long seed = System.nanoTime();
        System.out.println("neverFailsOtherwiseOnArbitraryBytes seed " + seed);
        Random random = new Random(seed);
        List<byte[]> messages = realMessages();
        for (int round = 0; round < 20_000; round++) {
            byte[] bytes;
            if (round % 2 == 0) {
                bytes = new byte[random.nextInt(64)];
                random.nextBytes(bytes);
            } else {
                bytes = messages.get(random.nextInt(messages.size())).clone();
                for (int flips = 1 + random.nextInt(3); flips > 0; flips--) {
                    bytes[random.nextInt(bytes.length)] = (byte) random.nextInt(256);
                }
            }
            try {
                int length = scan(bytes, LIMIT);
                assertTrue(length == MessageScanner.NEED_MORE || (length > 0 && length <= bytes.length),
                        "seed " + seed + ": length " + length + " of " + bytes.length);
            } catch (MalformedMessageException expected) {
                // refused
            } catch (RuntimeException e) {
                fail("seed " + seed + ", round " + round + ": " + e, e);
            }
        }
    }

    static byte[] nestedStructs(int levels) {
        WireBytes bytes = new WireBytes().strictHeader("describe_version", TMessageType.CALL, 1);
        for (int level = 0; level < levels; level++) {
            bytes.field(TType.STRUCT, 1);
        }
        for (int level = 0; level <= levels; level++) {
            bytes.stop();
        }
        return bytes.toArray();
    }

    private static int scan(byte[] bytes, int limit) throws MalformedMessageException {
        MessageScanner scanner = new MessageScanner();
        scanner.reset(limit, false);
        return scanner.scan(Unpooled.wrappedBuffer(bytes), 0, bytes.length);
    }

    private static void assertRefused(byte[] bytes, int limit, String... reasonParts) {
        MalformedMessageException refused = assertThrows(MalformedMessageException.class, () -> scan(bytes, limit),
                "expected a refusal for " + describe(bytes));
        for (String part : reasonParts) {
            assertTrue(refused.getMessage().contains(part), "reason \"" + refused.getMessage() + "\" lacks \"" + part + "\"");
        }
    }

    private static ByteBuffer bytes(String text) {
        return ByteBuffer.wrap(text.getBytes(UTF_8));
    }

    private static String describe(byte[] message) {
        return io.netty.buffer.ByteBufUtil.hexDump(message);
    }
}

package sibyl.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.cassandra.thrift.Cassandra;
import org.apache.cassandra.thrift.Column;
import org.apache.cassandra.thrift.ColumnOrSuperColumn;
import org.apache.cassandra.thrift.SuperColumn;
import org.apache.cassandra.thrift.TokenRange;
import org.apache.thrift.TBase;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.transport.TMemoryBuffer;
import org.junit.jupiter.api.Test;

/** The reply protocol writes the very bytes libthrift's binary protocol writes. */
class ReplyProtocolTest {

    @Test
    void aSliceOfStandardAndSuperColumnsEncodesAsLibthriftEncodesIt() throws Exception {
        Column plain = new Column(bytes("name"), bytes("value"), -1L);
        Column wide = new Column(bytes("n".repeat(300)), ByteBuffer.wrap(new byte[70_000]), Long.MAX_VALUE);
        Column empty = new Column(ByteBuffer.allocate(0), ByteBuffer.allocate(0), 0L);
        SuperColumn sup = new SuperColumn(bytes("sc"), List.of(plain, empty));
        Cassandra.get_slice_result result = new Cassandra.get_slice_result();
        result.setSuccess(List.of(new ColumnOrSuperColumn().setColumn(plain), new ColumnOrSuperColumn().setColumn(wide),
                new ColumnOrSuperColumn().setSuper_column(sup)));
        assertSameBytes("get_slice", result, 7);
    }

    @Test
    void mapsSetsStringsNegativeNumbersAndSeqIdsEncodeAsLibthriftEncodesThem() throws Exception {
        Cassandra.describe_keyspace_result keyspace = new Cassandra.describe_keyspace_result();
        keyspace.setSuccess(Map.of("Standard1", Map.of("Type", "Standard", "Desc", "é ü 字")));
        assertSameBytes("describe_keyspace", keyspace, Integer.MIN_VALUE);
        Cassandra.describe_ring_result ring = new Cassandra.describe_ring_result();
        ring.setSuccess(List.of(new TokenRange("-1", "170141183460469231731687303715884105727", List.of("127.0.0.1"))));
        assertSameBytes("describe_ring", ring, -1);
        Cassandra.get_count_result count = new Cassandra.get_count_result();
        count.setSuccess(-123456);
        assertSameBytes("get_count", count, Short.MAX_VALUE + 1);
    }

    private static void assertSameBytes(String method, TBase<?, ?> body, int seqId) throws TException {
        TMemoryBuffer expected = new TMemoryBuffer(256);
        write(new TBinaryProtocol(expected), method, body, seqId);
        ByteBuf actual = Unpooled.buffer(16); // small, so that the reply grows as replies do
        try {
            write(new ReplyProtocol(new ByteBufTransport(actual)), method, body, seqId);
            assertArrayEquals(Arrays.copyOf(expected.getArray(), expected.length()), ByteBufUtil.getBytes(actual), method);
        } finally {
            actual.release();
        }
    }

    private static void write(TProtocol out, String method, TBase<?, ?> body, int seqId) throws TException {
        out.writeMessageBegin(new TMessage(method, TMessageType.REPLY, seqId));
        body.write(out);
        out.writeMessageEnd();
    }

    private static ByteBuffer bytes(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }
}

package sibyl.transport;

import io.netty.buffer.ByteBuf;

/**
 * The messages of an unframed connection (TSocket): one after the other with nothing between them, each ending
 * where the {@link MessageScanner} finds its end, within the message limit.
 */
final class UnframedMessageDecoder extends ThriftMessageDecoder {
    private final int maxMessageBytes;

    UnframedMessageDecoder(int maxMessageBytes, RequestBudget budget, BurstLog overload) {
        super(WireMode.UNFRAMED, budget, overload);
        this.maxMessageBytes = maxMessageBytes;
    }

    @Override
    int startMessage(ByteBuf in) {
        return maxMessageBytes;
    }

    @Override
    int framingBytes() {
        return 0;
    }

    @Override
    int messageBytes(int available) {
        return available;
    }

    @Override
    void checkComplete(int length) {
        // The scanner found the end: the message is all there is.
    }
}

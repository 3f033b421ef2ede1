package sibyl.db.marshal;

import java.nio.ByteBuffer;

/**
 * A type 0.6 did not have, which checks a value alike in both dialects: Cassandra 3.11's check, in its words
 * ({@link #conform}).
 */
abstract class UniformlyCheckedType extends AbstractType {
    @Override
    public abstract void conform(ByteBuffer value);

    @Override
    public final void validate(ByteBuffer name) {
        conform(name);
    }

    @Override
    public final void validate(byte[] name) {
        conform(ByteBuffer.wrap(name));
    }
}

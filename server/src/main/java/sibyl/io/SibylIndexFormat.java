package sibyl.io;

import java.nio.file.Path;
import sibyl.dht.DecoratedKey;

/** Sibyl's index entries ({@link IndexEntry}): each records its row's length and carries a checksum. */
final class SibylIndexFormat implements IndexFormat {
    static final SibylIndexFormat INSTANCE = new SibylIndexFormat();

    private SibylIndexFormat() {
    }

    @Override
    public IndexEntries scan(PositionalFile index, long start) {
        return IndexEntry.Reader.scan(index, start);
    }

    @Override
    public IndexEntry find(byte[] stretch, int length, long stretchStart, long stretchDataEnd, DecoratedKey key, Path file) {
        return IndexEntry.find(stretch, length, stretchStart, IndexEntry.encodeKey(key.key()), file);
    }
}

package sibyl.commitlog;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import sibyl.db.CFMetaData;
import sibyl.db.Column;
import sibyl.db.ColumnFamily;
import sibyl.db.KSMetaData;
import sibyl.db.ResolvedMutation;
import sibyl.db.marshal.BytesType;

/** A one-keyspace schema, mutations that name themselves, and replay into a list. */
final class LogFixture {
    static final String KS = "Keyspace1";
    static final CFMetaData A = CFMetaData.standard(KS, "A", BytesType.instance);
    static final CFMetaData B = CFMetaData.standard(KS, "B", BytesType.instance);
    static final KSMetaData SCHEMA = new KSMetaData(KS, 1, List.of(A, B));
    static final SyncMode PERIODIC = new SyncMode.Periodic(Duration.ofSeconds(10));
    static final SyncMode BATCH = new SyncMode.Batch(Duration.ofMillis(2));

    private LogFixture() {
    }

    /** A write of column "c" = {@code key} to row {@code key} of {@code cf}. */
    static ResolvedMutation write(CFMetaData cf, String key) {
        byte[] v = key.getBytes(StandardCharsets.UTF_8);
        return new ResolvedMutation(KS, key, List.of(ColumnFamily.empty(cf).withCell(Column.live(new byte[]{'c'}, v, 1))));
    }

    static ResolvedMutation write(String key) {
        return write(A, key);
    }

    /** Opens a log on {@code dir}, replays it, closes it: the keys replayed, in order. */
    static List<String> replayKeys(Path dir) throws IOException {
        List<String> keys = new ArrayList<>();
        try (CommitLog log = CommitLog.open(dir, PERIODIC, 1 << 20)) {
            log.recover(ks -> ks.equals(KS) ? Optional.of(SCHEMA) : Optional.empty(), m -> keys.add(m.key()));
        }
        return keys;
    }

    static List<String> keys(String prefix, int from, int to) {
        List<String> keys = new ArrayList<>();
        for (int i = from; i < to; i++) keys.add(prefix + i);
        return keys;
    }
}

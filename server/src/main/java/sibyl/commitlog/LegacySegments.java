package sibyl.commitlog;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sibyl.db.KSMetaData;
import sibyl.db.ResolvedMutation;

/**
 * The Cassandra 0.6 segments of one open commit log, and their way to being replayed exactly
 * once: found at open, replayed unless the {@link LegacyReplayManifest} lists them unchanged,
 * listed there once the engine has flushed what they gave. Thread-safe; {@link #confirm} reads
 * files, so this has a monitor of its own rather than the log's lock.
 */
final class LegacySegments {
    private static final Logger log = LoggerFactory.getLogger(LegacySegments.class);

    private final Path directory;
    private final int replayedBefore;
    // Guarded by this:
    private List<LegacySegment> unreplayed;
    /** Listed and still present unchanged: kept in the list when it is rewritten. */
    private List<LegacyReplayManifest.Entry> listed;
    /** Replayed by this start, not yet confirmed. */
    private List<LegacySegment> replayed = List.of();

    private LegacySegments(Path directory, List<LegacySegment> unreplayed, List<LegacyReplayManifest.Entry> listed) {
        this.directory = directory;
        this.unreplayed = List.copyOf(unreplayed);
        this.listed = List.copyOf(listed);
        this.replayedBefore = listed.size();
    }

    /** Sorts the segments found into those to replay and those the list shows replayed before. */
    static LegacySegments of(Path directory, List<LegacySegment> found) {
        List<LegacyReplayManifest.Entry> manifest;
        try {
            manifest = LegacyReplayManifest.read(directory);
        } catch (IOException e) {
            log.warn("The list of replayed Cassandra 0.6 commit log segments {} does not read ({}): replaying every"
                    + " 0.6 segment again, which is safe", directory.resolve(LegacyReplayManifest.FILE_NAME), e.getMessage());
            manifest = List.of();
        }
        List<LegacySegment> toReplay = new ArrayList<>();
        List<LegacyReplayManifest.Entry> listed = new ArrayList<>();
        for (LegacySegment s : found) {
            if (manifest.contains(s.fingerprint())) listed.add(s.fingerprint());
            else toReplay.add(s);
        }
        if (!listed.isEmpty()) {
            log.info("Cassandra 0.6 commit log segments {} were replayed and flushed at an earlier start: not replayed"
                    + " again. Sibyl never changes them, so that the node can roll back to 0.6; remove them from {}"
                    + " once that is no longer wanted", listed.stream().map(LegacyReplayManifest.Entry::name).toList(),
                    directory);
        }
        return new LegacySegments(directory, toReplay, listed);
    }

    /** Replays the segments to replay, once; later calls replay nothing. */
    LegacyReplayer.Result replay(Optional<List<KSMetaData>> keyspacesInOrder,
                                 Function<String, Optional<KSMetaData>> schema, Consumer<ResolvedMutation> sink)
            throws IOException {
        List<LegacySegment> toReplay;
        synchronized (this) {
            toReplay = unreplayed;
            unreplayed = List.of();
        }
        LegacyReplayer.Result result = LegacyReplayer.replay(toReplay, keyspacesInOrder, schema, sink);
        synchronized (this) {
            replayed = toReplay;
        }
        return result;
    }

    /** Segments the list showed replayed before, at open. */
    int replayedBefore() {
        return replayedBefore;
    }

    /** Adds the segments replayed by this start to the list, those changed since excepted. */
    synchronized int confirm() throws IOException {
        if (replayed.isEmpty()) return 0;
        List<LegacyReplayManifest.Entry> entries = new ArrayList<>(listed);
        List<String> added = new ArrayList<>();
        for (LegacySegment s : replayed) {
            Optional<LegacyReplayManifest.Entry> now = Files.exists(s.file())
                    ? Optional.of(LegacyReplayManifest.fingerprint(s.file())) : Optional.empty();
            if (now.isPresent() && now.get().equals(s.fingerprint())) {
                entries.add(s.fingerprint());
                added.add(s.fingerprint().name());
            } else {
                log.warn("Cassandra 0.6 commit log segment {} changed or went away after it was replayed: not listed as"
                        + " replayed, so the next start replays it again", s.file());
            }
        }
        LegacyReplayManifest.write(directory, entries);
        listed = List.copyOf(entries);
        replayed = List.of();
        log.info("Cassandra 0.6 commit log segments {} are replayed and flushed: listed in {}, so no later start"
                + " replays them again. They are left as they are, for a rollback to 0.6", added,
                directory.resolve(LegacyReplayManifest.FILE_NAME));
        return added.size();
    }
}

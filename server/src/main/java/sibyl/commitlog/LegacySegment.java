package sibyl.commitlog;

import java.nio.file.Path;

/**
 * A Cassandra 0.6 commit log segment found in the commit log directory. Sibyl reads it and
 * never writes, truncates or deletes it.
 *
 * @param id          the milliseconds in its name, {@code CommitLog-<id>.log}: its age among the others
 * @param header      its header as read when it was found
 * @param fingerprint its name, length and checksum then, as {@link LegacyReplayManifest} lists it
 */
record LegacySegment(long id, Path file, LegacySegmentHeader header, LegacyReplayManifest.Entry fingerprint) {
}

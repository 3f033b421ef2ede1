package sibyl.commitlog;

import java.time.Duration;

/**
 * What a start-up replay of the commit log did.
 *
 * @param segments        segment files read
 * @param entries         entries applied
 * @param damagedSegments segments whose reading stopped at a torn or corrupt entry or header
 * @param elapsed         how long reading and applying took
 */
public record ReplaySummary(int segments, long entries, int damagedSegments, Duration elapsed) {
}

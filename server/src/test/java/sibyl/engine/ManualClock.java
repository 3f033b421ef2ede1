package sibyl.engine;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;

/** A clock a test moves by hand, so that what ages with time (tombstones, expiring columns) needs no sleeping. */
final class ManualClock extends Clock {
    private volatile Instant now;

    ManualClock(Instant now) {
        this.now = now;
    }

    void advance(Duration d) {
        now = now.plus(d);
    }

    /** Seconds since the epoch now. */
    int seconds() {
        return (int) now.getEpochSecond();
    }

    @Override
    public ZoneId getZone() {
        return ZoneId.of("UTC");
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }

    @Override
    public Instant instant() {
        return now;
    }
}

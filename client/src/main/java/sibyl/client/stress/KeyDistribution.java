package sibyl.client.stress;

import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/** Which key (an index in 0..numKeys-1) the next operation uses. */
abstract class KeyDistribution {

    final long numKeys;

    private KeyDistribution(long numKeys) {
        this.numKeys = numKeys;
    }

    /** The next key index; {@code random} is the calling thread's own generator. */
    abstract long next(SplittableRandom random);

    abstract String label();

    static KeyDistribution of(String name, long numKeys, double stdevFraction) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "uniform" -> new Uniform(numKeys);
            case "gaussian" -> new Gaussian(numKeys, stdevFraction);
            case "sequential" -> new Sequential(numKeys);
            default -> throw new IllegalArgumentException("unknown key distribution '" + name
                    + "'; use uniform, gaussian or sequential");
        };
    }

    /** Every key equally likely. */
    static final class Uniform extends KeyDistribution {
        Uniform(long numKeys) {
            super(numKeys);
        }

        @Override
        long next(SplittableRandom random) {
            return random.nextLong(numKeys);
        }

        @Override
        String label() {
            return "uniform";
        }
    }

    /** Keys around the middle of the range; standard deviation a fraction of the key count. */
    static final class Gaussian extends KeyDistribution {
        private final double stdev;

        Gaussian(long numKeys, double stdevFraction) {
            super(numKeys);
            this.stdev = stdevFraction * numKeys;
        }

        @Override
        long next(SplittableRandom random) {
            // Box-Muller; SplittableRandom has no nextGaussian in Java 17.
            double u = 1.0 - random.nextDouble();
            double v = random.nextDouble();
            double z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
            long k = Math.round(numKeys / 2.0 + z * stdev);
            return Math.min(Math.max(k, 0), numKeys - 1);
        }

        @Override
        String label() {
            return "gaussian";
        }
    }

    /** 0, 1, 2, ... shared by all threads, wrapping at the key count: a counted insert run writes every key once. */
    static final class Sequential extends KeyDistribution {
        private final AtomicLong next = new AtomicLong();

        Sequential(long numKeys) {
            super(numKeys);
        }

        @Override
        long next(SplittableRandom random) {
            return Math.floorMod(next.getAndIncrement(), numKeys);
        }

        @Override
        String label() {
            return "sequential";
        }
    }
}

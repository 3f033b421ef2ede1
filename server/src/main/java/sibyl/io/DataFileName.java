package sibyl.io;

import java.util.regex.Pattern;

/**
 * What the name of an entry of a keyspace data directory says it is: a file of Sibyl's, of Cassandra 0.6's
 * (the two share {@code <CF>-<generation>-<Component>}), of a later Cassandra (whose names carry a format
 * version), or nothing either writes. Only the name: the content decides between Sibyl and 0.6
 * ({@link DataFileInventory}).
 */
sealed interface DataFileName {
    /** The column family the name is of; null when the name does not say. */
    String columnFamily();

    /** {@code <CF>-<gen>-<Component>}: a component of a Sibyl or a Cassandra 0.6 SSTable. */
    record Part(String columnFamily, int generation, Component component) implements DataFileName {
    }

    /** {@code <CF>-<gen>-Compacted}: 0.6's mark of a replaced SSTable (empty), or Sibyl's ({@link CompactedMarker}). */
    record Marker(String columnFamily, int generation) implements DataFileName {
    }

    /** {@code tmp-<CF>-<gen>-<Component or Compacted>}: a file Sibyl was writing. */
    record SibylTemporary(String columnFamily, int generation) implements DataFileName {
    }

    /** {@code <CF>-tmp-<gen>-<Data.db, Index.db or Filter.db>}: a file Cassandra 0.6 was writing. */
    record Cassandra06Temporary(String columnFamily, int generation) implements DataFileName {
    }

    /** A file or directory of a later Cassandra: {@code what} says which, as a message would. */
    record LaterCassandra(String columnFamily, String what) implements DataFileName {
    }

    /** None of the above; the column family when the name has the shape {@code <CF>-<gen>-<something>}. */
    record Unknown(String columnFamily) implements DataFileName {
    }

    /** The generation of a name that has one, else -1. */
    default int generation() {
        if (this instanceof Part p) return p.generation();
        if (this instanceof Marker m) return m.generation();
        if (this instanceof SibylTemporary t) return t.generation();
        if (this instanceof Cassandra06Temporary t) return t.generation();
        return -1;
    }

    String COMPACTED = "Compacted";
    /** The format versions later Cassandras put in SSTable names: one or two lower-case letters. */
    Pattern VERSION = Pattern.compile("[a-z]{1,2}");
    Pattern TABLE_DIRECTORY_ID = Pattern.compile("[0-9a-f]{32}");
    Pattern TRANSACTION_LOG = Pattern.compile("([a-z]{2})_txn_.*\\.log");

    /** Parses the name of a file (not a directory). */
    static DataFileName ofFile(String name) {
        String[] p = name.split("-", -1);
        switch (p.length) {
            case 3 -> {
                int generation = generation(p[1]);
                if (p[0].isEmpty() || generation < 0) break;
                Component component = Component.ofSuffix(p[2]);
                if (component != null) return new Part(p[0], generation, component);
                if (p[2].equals(COMPACTED)) return new Marker(p[0], generation);
                return new Unknown(p[0]);
            }
            case 4 -> {
                if ((p[0] + "-").equals(Descriptor.TEMPORARY_PREFIX) && !p[1].isEmpty() && generation(p[2]) >= 0
                        && (Component.ofSuffix(p[3]) != null || p[3].equals(COMPACTED))) {
                    return new SibylTemporary(p[1], generation(p[2]));
                }
                if (p[1].equals("tmp") && !p[0].isEmpty() && generation(p[2]) >= 0 && Component.ofSuffix(p[3]) != null
                        && SSTableFormat.CASSANDRA_06.components().contains(Component.ofSuffix(p[3]))) {
                    return new Cassandra06Temporary(p[0], generation(p[2]));
                }
                if (!p[0].isEmpty() && isVersion(p[1]) && generation(p[2]) >= 0) {
                    return later(p[0], p[1], 0);
                }
                if (isVersion(p[0]) && generation(p[1]) >= 0 && (p[2].equals("big") || p[2].equals("bti"))) {
                    return later(null, p[0], 2);
                }
            }
            case 5 -> {
                if (p[1].equals("tmp") && isVersion(p[2]) && generation(p[3]) >= 0) return later(p[0], p[2], 0);
                if (isVersion(p[2]) && generation(p[3]) >= 0) return later(p[1], p[2], 1);
            }
            case 6 -> {
                if ((p[2].equals("tmp") || p[2].equals("tmplink")) && isVersion(p[3]) && generation(p[4]) >= 0) {
                    return later(p[1], p[3], 1);
                }
            }
            default -> {
            }
        }
        var log = TRANSACTION_LOG.matcher(name);
        if (log.matches()) {
            return new LaterCassandra(null, "a transaction log of Cassandra " + release(log.group(1), 2) + " or later");
        }
        return new Unknown(null);
    }

    /** Parses the name of a directory other than {@code snapshots}. */
    static DataFileName ofDirectory(String name) {
        String[] p = name.split("-", -1);
        if (p.length == 2 && !p[0].isEmpty() && TABLE_DIRECTORY_ID.matcher(p[1]).matches()) {
            return new LaterCassandra(p[0], "a table directory of Cassandra 2.1 or later");
        }
        if (p.length == 1 && !name.isEmpty() && !name.startsWith(".")) {
            return new LaterCassandra(name, "a column family directory of Cassandra 1.1 or later");
        }
        return new Unknown(null);
    }

    private static DataFileName later(String columnFamily, String version, int layout) {
        return new LaterCassandra(columnFamily, "an SSTable of Cassandra " + release(version, layout)
                + " or later (format " + version + ")");
    }

    /**
     * The first release that wrote SSTables of {@code version} in file names of {@code layout}: 0 for
     * {@code <CF>-<version>-<gen>-...} (0.7 to 1.0), 1 for {@code <KS>-<CF>-<version>-<gen>-...} (1.1 to 2.1),
     * 2 for {@code <version>-<gen>-<big|bti>-...} (2.2 on).
     */
    private static String release(String version, int layout) {
        char c = version.charAt(0);
        return switch (layout) {
            case 0 -> c <= 'f' ? "0.7" : c == 'g' ? "0.8" : "1.0";
            case 1 -> c <= 'h' ? "1.1" : c == 'i' ? "1.2" : c == 'j' ? "2.0" : "2.1";
            default -> c == 'l' ? "2.2" : c == 'm' ? "3.0" : c == 'n' ? "4.0" : c == 'o' || c == 'd' ? "5.0" : "2.2";
        };
    }

    private static boolean isVersion(String s) {
        return !s.equals("tmp") && VERSION.matcher(s).matches();
    }

    /** A generation's digits as a number, or -1 when they are none (or more than an int holds). */
    private static int generation(String s) {
        if (s.isEmpty() || s.length() > 10) return -1;
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') return -1;
        }
        long n = Long.parseLong(s);
        return n > Integer.MAX_VALUE ? -1 : (int) n;
    }
}

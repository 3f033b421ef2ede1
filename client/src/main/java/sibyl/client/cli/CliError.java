package sibyl.client.cli;

/** A statement that cannot be carried out, with a message saying what was wrong. */
final class CliError extends RuntimeException {
    CliError(String message) {
        super(message);
    }

    /**
     * Refuses a path deeper than its column family has levels (either dialect).
     *
     * @param depth the names after the key
     */
    static void checkDepth(String columnFamily, boolean isSuper, int depth, Object path) {
        if (depth > (isSuper ? 2 : 1)) {
            throw new CliError(columnFamily + " is a " + (isSuper ? "super" : "standard") + " column family: at most "
                    + (isSuper ? "['key']['super column']['column']" : "['key']['column']") + ", got " + path);
        }
    }
}

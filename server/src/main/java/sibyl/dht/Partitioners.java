package sibyl.dht;

/** Finds a partitioner by its configured name. */
public final class Partitioners {
    private static final String PACKAGE = "org.apache.cassandra.dht.";

    private Partitioners() {
    }

    /**
     * Accepts the full 0.6 class name ({@code org.apache.cassandra.dht.RandomPartitioner}) or the
     * short one ({@code RandomPartitioner}).
     *
     * @throws IllegalArgumentException naming the partitioner when it is none of the five
     */
    public static Partitioner forName(String name) {
        String shortName = name.startsWith(PACKAGE) ? name.substring(PACKAGE.length()) : name;
        return switch (shortName) {
            case "RandomPartitioner" -> new RandomPartitioner();
            case "OrderPreservingPartitioner" -> new OrderPreservingPartitioner();
            case "CollatingOrderPreservingPartitioner" -> new CollatingOrderPreservingPartitioner();
            case "ByteOrderedPartitioner" -> new ByteOrderedPartitioner();
            case "Murmur3Partitioner" -> new Murmur3Partitioner();
            default -> throw new IllegalArgumentException("unknown partitioner " + name
                    + "; known: RandomPartitioner, OrderPreservingPartitioner, CollatingOrderPreservingPartitioner,"
                    + " ByteOrderedPartitioner, Murmur3Partitioner");
        };
    }
}

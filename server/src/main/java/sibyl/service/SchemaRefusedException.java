package sibyl.service;

/**
 * A schema change by API refused before anything changed: the keyspace or column family exists already or does
 * not, belongs to storage-conf.xml, or the store cannot take it. {@link #getMessage} is the text a client is given.
 */
public final class SchemaRefusedException extends Exception {
    public SchemaRefusedException(String why) {
        super(why);
    }

    public SchemaRefusedException(String why, Throwable cause) {
        super(why, cause);
    }
}

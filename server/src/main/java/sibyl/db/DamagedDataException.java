package sibyl.db;

/**
 * A read met stored data that fails its checks: a block, row header or index entry of an SSTable
 * is not what was written (a checksum mismatch, a length out of bounds). The request was fine and
 * retrying it will not help; the message names the column family, the file and what is wrong,
 * and what an operator does about it.
 */
public final class DamagedDataException extends RuntimeException {
    public DamagedDataException(String message, Throwable cause) {
        super(message, cause);
    }
}

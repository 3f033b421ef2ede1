package sibyl.thrift20;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import sibyl.iface.v20.Compression;
import sibyl.iface.v20.InvalidRequestException;

/**
 * The text of a CQL query as a Thrift client sends it (docs/thrift-api-0.7.md §CQL): UTF-8, as it is or, for
 * {@link Compression#GZIP}, deflated in the zlib format (what 3.11 inflates, whatever the constant's name says); and
 * the one statement Sibyl answers itself, {@code USE}, which sets the connection's keyspace.
 */
final class CqlQueries {
    /** Bounds what a small compressed query may inflate to. */
    static final int MAX_QUERY_BYTES = 16 << 20;
    /** USE and a keyspace name, unquoted (CQL folds it to lower case) or double-quoted (kept as written). */
    private static final Pattern USE = Pattern.compile(
            "(?is)\\s*USE\\s+(?:\"((?:[^\"]|\"\")+)\"|([A-Za-z][A-Za-z0-9_]*))\\s*;?\\s*");
    private static final Pattern STARTS_WITH_USE = Pattern.compile("(?is)\\s*USE\\b.*");

    private CqlQueries() {
    }

    static String text(ByteBuffer query, Compression compression) throws InvalidRequestException {
        byte[] bytes = new byte[query.remaining()];
        query.duplicate().get(bytes);
        if (compression == Compression.GZIP) bytes = inflated(bytes);
        else if (compression != Compression.NONE) throw new InvalidRequestException("Unknown Compression type: " + compression);
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new InvalidRequestException("the query is not UTF-8 text");
        }
    }

    /**
     * The keyspace a USE statement names; empty for any other statement.
     *
     * @throws InvalidRequestException for a statement that begins with USE and names no keyspace as CQL spells one
     */
    static Optional<String> usedKeyspace(String statement) throws InvalidRequestException {
        Matcher m = USE.matcher(statement);
        if (m.matches()) return Optional.of(m.group(1) != null ? m.group(1).replace("\"\"", "\"") : m.group(2).toLowerCase());
        if (STARTS_WITH_USE.matcher(statement).matches()) {
            throw new InvalidRequestException("USE takes one keyspace name, as CQL writes one: " + statement.strip());
        }
        return Optional.empty();
    }

    private static byte[] inflated(byte[] deflated) throws InvalidRequestException {
        Inflater inflater = new Inflater();
        try {
            inflater.setInput(deflated);
            ByteArrayOutputStream out = new ByteArrayOutputStream(deflated.length * 2);
            byte[] chunk = new byte[8192];
            while (!inflater.finished()) {
                int n = inflater.inflate(chunk);
                if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                    throw new InvalidRequestException("Error deflating query string.");
                }
                out.write(chunk, 0, n);
                if (out.size() > MAX_QUERY_BYTES) {
                    throw new InvalidRequestException("the query inflates to more than " + MAX_QUERY_BYTES + " bytes");
                }
            }
            return out.toByteArray();
        } catch (DataFormatException e) {
            throw new InvalidRequestException("Error deflating query string.");
        } finally {
            inflater.end();
        }
    }
}

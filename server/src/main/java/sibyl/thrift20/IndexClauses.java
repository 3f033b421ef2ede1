package sibyl.thrift20;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import sibyl.db.CFMetaData;
import sibyl.db.IndexQuery;
import sibyl.db.marshal.AbstractType;
import sibyl.db.marshal.MarshalException;
import sibyl.iface.v20.IndexClause;
import sibyl.iface.v20.IndexExpression;
import sibyl.iface.v20.InvalidRequestException;
import sibyl.thrift.ThriftConversion;

/**
 * get_indexed_slices' IndexClause and get_range_slices' row_filter, checked as 3.11 checks them and in its words
 * (docs/thrift-api-0.7.md §Secondary indexes), made into an {@link IndexQuery}.
 */
final class IndexClauses {
    /** The largest value an expression may compare with, as 3.11 allows. */
    private static final int MAX_VALUE = 0xFFFF;

    private IndexClauses() {
    }

    /** An IndexClause: at least one expression, one of them EQ on an indexed column. */
    static IndexQuery indexClause(CFMetaData cf, IndexClause clause) throws InvalidRequestException {
        if (clause.getExpressions() == null || clause.getExpressions().isEmpty()) {
            throw new InvalidRequestException("index clause list may not be empty");
        }
        IndexQuery query = expressions(cf, clause.getExpressions());
        if (!indexed(cf, query)) {
            throw new InvalidRequestException("No indexed columns present in index clause with operator EQ");
        }
        return query;
    }

    /** A row_filter: any expressions; without an EQ on an indexed column every row of the range is judged. */
    static IndexQuery rowFilter(CFMetaData cf, List<IndexExpression> filter) throws InvalidRequestException {
        if (cf.isSuper()) throw new InvalidRequestException("super columns are not supported for indexing");
        return expressions(cf, filter);
    }

    private static boolean indexed(CFMetaData cf, IndexQuery query) {
        for (IndexQuery.Expression e : query.expressions()) {
            if (e.op() == IndexQuery.Operator.EQ && cf.indexes().indexes(ByteBuffer.wrap(e.column()))) return true;
        }
        return false;
    }

    private static IndexQuery expressions(CFMetaData cf, List<IndexExpression> expressions) throws InvalidRequestException {
        List<IndexQuery.Expression> all = new ArrayList<>();
        for (IndexExpression e : expressions) {
            if (e.column_name == null || e.op == null || e.value == null) {
                throw new InvalidRequestException("an index expression needs column_name, op and value");
            }
            try {
                cf.comparator().validate(e.column_name);
            } catch (MarshalException me) {
                throw new InvalidRequestException("[" + hex(e.column_name) + "]=[" + hex(e.value) + "] failed name validation ("
                        + me.getMessage() + ")");
            }
            if (e.value.remaining() > MAX_VALUE) {
                throw new InvalidRequestException("Index expression values may not be larger than 64K");
            }
            AbstractType type = cf.validators().valueOf(e.column_name);
            try {
                type.conform(e.value);
            } catch (MarshalException me) {
                throw new InvalidRequestException("[" + hex(e.column_name) + "]=[" + hex(e.value) + "] failed value validation ("
                        + me.getMessage() + ")");
            }
            all.add(new IndexQuery.Expression(ThriftConversion.bytes(e.column_name), IndexQuery.Operator.valueOf(e.op.name()),
                    ThriftConversion.bytes(e.value)));
        }
        return new IndexQuery(all);
    }

    private static String hex(ByteBuffer b) {
        StringBuilder s = new StringBuilder();
        ByteBuffer d = b.duplicate();
        while (d.hasRemaining()) s.append(String.format("%02x", d.get() & 0xff));
        return s.toString();
    }
}

package sibyl.db;

/**
 * How deep below its column family the path of each kind of call may go, with 0.6's texts for a path of
 * the wrong shape: 0.6 words the same mistake differently for each kind of call, and all its texts are here
 * (docs/thrift-api.md §Paths). The Thrift layer checks requests with it first; the stores check what reaches
 * them with {@link #check} and refuse in the same words.
 *
 * <p>0.6 checked the shape before the names on the path. Where it accepted a shape it could not serve and
 * then failed internally, Sibyl refuses the path after the names ({@link #problemAfterNames}), so that a
 * request 0.6 refused still gets 0.6's answer.
 */
public enum PathShape {
    /**
     * The ColumnPath of get and multiget, and each column written by batch_insert and batch_mutate: a column
     * of a standard CF; a super column, or a column in one, of a super CF.
     */
    COLUMN,
    /** insert's ColumnPath: as {@link #COLUMN}, but always down to a column. */
    INSERT,
    /** remove's ColumnPath: any level below the column family; a super column only in a super CF. */
    REMOVE,
    /** The ColumnParent of slices, counts and range slices: the column family, or a super column of a super CF. */
    PARENT;

    /** What is wrong with a path of this kind, in 0.6's words, before its names are looked at; null if nothing. */
    public String problem(CFMetaData cf, boolean superColumn, boolean column) {
        boolean toAColumn = this == COLUMN || this == INSERT;
        if (cf.isSuper()) {
            return toAColumn && !superColumn ? "supercolumn parameter is not optional for super CF " + cf.name() : null;
        }
        if (superColumn) {
            return switch (this) {
                case COLUMN, INSERT -> "supercolumn parameter is invalid for standard CF " + cf.name();
                case REMOVE -> "supercolumn may not be specified for standard CF " + cf.name();
                case PARENT -> "columnfamily alone is required for standard CF " + cf.name();
            };
        }
        return toAColumn && !column ? "column parameter is not optional for standard CF " + cf.name() : null;
    }

    /**
     * What Sibyl refuses, once the names are checked, of a path 0.6 let through and then failed on; null if
     * nothing. Both are in a super CF, whose shapes 0.6 checked only as far as the super column.
     */
    public String problemAfterNames(CFMetaData cf, boolean superColumn, boolean column) {
        if (this == INSERT && !column) {
            // 0.6 tripped an assertion writing it.
            return "column parameter is not optional for insert into super CF " + cf.name();
        }
        if (this == REMOVE && cf.isSuper() && column && !superColumn) {
            // 0.6 stored a plain column inside a super CF; nothing could read it back.
            return "column may not be specified without a supercolumn for super CF " + cf.name();
        }
        return null;
    }

    /**
     * Refuses a path of this kind whose shape does not fit {@code cf}, with {@link #problem}'s text; names are
     * not looked at. For a store's own check of what reaches it: a front end should have refused it already.
     */
    public void check(CFMetaData cf, boolean superColumn, boolean column) {
        String problem = problem(cf, superColumn, column);
        if (problem != null) throw new InvalidQueryException(problem);
    }

    /** {@link #check(CFMetaData, boolean, boolean)} of a read's path; a slice's parent ({@link #PARENT}) names no column. */
    public void check(CFMetaData cf, QueryPath path) {
        if (this == PARENT && path.column() != null) {
            throw new IllegalArgumentException("a slice parent names no column: " + path);
        }
        check(cf, path.superColumn() != null, path.column() != null);
    }
}

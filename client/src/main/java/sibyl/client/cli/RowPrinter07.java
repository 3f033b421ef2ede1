package sibyl.client.cli;

import java.io.PrintStream;
import java.util.List;
import sibyl.iface.v20.Column;
import sibyl.iface.v20.ColumnOrSuperColumn;
import sibyl.iface.v20.KeySlice;
import sibyl.iface.v20.SuperColumn;

/**
 * Prints columns, super columns and rows in the shapes of the 0.7 cli: {@code => (column=N, value=V, timestamp=T)}
 * with {@code , ttl=S} for an expiring column, a super column's subcolumns one per line under it, and rows of a
 * list between dashed lines. Names, keys and values are printed by the column family's types.
 */
final class RowPrinter07 {

    private final PrintStream out;

    RowPrinter07(PrintStream out) {
        this.out = out;
    }

    /** One column; {@code as} (or null) is the type to print its value by instead of the column family's. */
    void column(CliType names, ColumnFamily07 cf, Column c, CliType as) {
        out.println("=> " + columnText(names, cf, c, as));
    }

    /** @param inSuper the column is a subcolumn (get SCF['key']['super']) */
    void columnOrSuper(ColumnFamily07 cf, ColumnOrSuperColumn cosc, boolean inSuper, CliType as) {
        if (cosc.isSetSuper_column()) {
            SuperColumn sc = cosc.getSuper_column();
            StringBuilder sb = new StringBuilder("=> (super_column=").append(cf.names().format(sc.getName()))
                    .append(',');
            for (Column c : sc.getColumns()) {
                sb.append(System.lineSeparator()).append("     ").append(columnText(cf.subNames(), cf, c, as));
            }
            out.println(sb.append(')'));
        } else {
            column(inSuper ? cf.subNames() : cf.names(), cf, cosc.getColumn(), as);
        }
    }

    /** The rows of a list statement, then how many there were. */
    void rows(ColumnFamily07 cf, List<KeySlice> slices) {
        for (KeySlice row : slices) {
            out.println("-------------------");
            out.println("RowKey: " + cf.keys().format(row.getKey()));
            for (ColumnOrSuperColumn cosc : row.getColumns()) {
                columnOrSuper(cf, cosc, false, null);
            }
        }
        out.println();
        out.println(slices.size() + (slices.size() == 1 ? " Row Returned." : " Rows Returned."));
    }

    private static String columnText(CliType names, ColumnFamily07 cf, Column c, CliType as) {
        CliType values = as != null ? as : cf.valueType(c.getName());
        return "(column=" + names.format(c.getName()) + ", value=" + values.format(c.getValue())
                + ", timestamp=" + c.getTimestamp() + (c.isSetTtl() ? ", ttl=" + c.getTtl() : "") + ")";
    }
}

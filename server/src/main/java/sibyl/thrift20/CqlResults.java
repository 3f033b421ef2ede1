package sibyl.thrift20;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import sibyl.iface.v20.Column;
import sibyl.iface.v20.CqlMetadata;
import sibyl.iface.v20.CqlPreparedResult;
import sibyl.iface.v20.CqlResult;
import sibyl.iface.v20.CqlResultType;
import sibyl.iface.v20.CqlRow;
import sibyl.service.CqlAnswer;
import sibyl.service.CqlPrepared;

/**
 * CQL answers in the Thrift structs 3.11 gives them in (docs/thrift-api-0.7.md §CQL): VOID for a statement without
 * rows; ROWS with each row's key empty and its columns named in UTF-8, a null value left unset, and the metadata
 * naming every column's name type {@code UTF8Type} and its value type by its class name.
 */
final class CqlResults {
    private static final String NAME_TYPE = "UTF8Type";
    private static final ByteBuffer NO_KEY = ByteBuffer.allocate(0);

    private CqlResults() {
    }

    static CqlResult of(CqlAnswer answer) {
        if (!answer.hasRows()) return new CqlResult(CqlResultType.VOID);
        List<ByteBuffer> names = new ArrayList<>(answer.names().size());
        Map<ByteBuffer, String> nameTypes = new HashMap<>();
        Map<ByteBuffer, String> valueTypes = new HashMap<>();
        for (int i = 0; i < answer.names().size(); i++) {
            ByteBuffer name = ByteBuffer.wrap(answer.names().get(i).getBytes(StandardCharsets.UTF_8));
            names.add(name);
            nameTypes.put(name, NAME_TYPE);
            valueTypes.put(name, answer.types().get(i));
        }
        List<CqlRow> rows = new ArrayList<>(answer.rows().size());
        for (List<ByteBuffer> values : answer.rows()) {
            List<Column> columns = new ArrayList<>(values.size());
            for (int i = 0; i < values.size(); i++) {
                Column c = new Column(names.get(i).duplicate());
                if (values.get(i) != null) c.setValue(values.get(i));
                columns.add(c);
            }
            rows.add(new CqlRow(NO_KEY.duplicate(), columns));
        }
        return new CqlResult(CqlResultType.ROWS).setRows(rows)
                .setSchema(new CqlMetadata(nameTypes, valueTypes, NAME_TYPE, NAME_TYPE));
    }

    static CqlPreparedResult of(CqlPrepared prepared) {
        return new CqlPreparedResult(prepared.id(), prepared.variableNames().size())
                .setVariable_types(prepared.variableTypes()).setVariable_names(prepared.variableNames());
    }
}

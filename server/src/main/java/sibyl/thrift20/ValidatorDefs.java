package sibyl.thrift20;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import sibyl.db.CFMetaData;
import sibyl.db.Validators;
import sibyl.db.marshal.AbstractType;
import sibyl.db.marshal.CounterColumnType;
import sibyl.db.marshal.MarshalException;
import sibyl.iface.v20.CfDef;
import sibyl.iface.v20.ColumnDef;
import sibyl.iface.v20.InvalidRequestException;
import sibyl.thrift.ThriftConversion;

/**
 * The one place a column family's {@link Validators} meet CfDef: key_validation_class, default_validation_class and
 * column_metadata (each ColumnDef's name and validation_class; its index fields are {@link IndexDefs}'), both ways.
 */
final class ValidatorDefs {
    private ValidatorDefs() {
    }

    /** Fills {@code def}'s three fields from {@code cf}, with each type's full name as 3.11 prints it. */
    static void describe(CFMetaData cf, CfDef def) {
        Validators v = cf.validators();
        def.setKey_validation_class(v.key().className());
        def.setDefault_validation_class(v.defaultValue().className());
        List<ColumnDef> columns = new ArrayList<>(v.columns().size());
        for (Map.Entry<ByteBuffer, AbstractType> c : v.columns().entrySet()) {
            columns.add(new ColumnDef(c.getKey().duplicate(), c.getValue().className()));
        }
        IndexDefs.describe(cf, columns);
        def.setColumn_metadata(columns);
    }

    /**
     * The validators {@code def} asks for, each column's name checked against {@code names} (the comparator of the
     * columns' level); unset fields are BytesType.
     *
     * @throws InvalidRequestException naming the type string or name that is not valid
     */
    static Validators read(CfDef def, AbstractType names) throws InvalidRequestException {
        Map<ByteBuffer, AbstractType> columns = new LinkedHashMap<>();
        if (def.isSetColumn_metadata()) {
            for (ColumnDef column : def.getColumn_metadata()) {
                try {
                    names.conform(column.name);
                } catch (MarshalException e) {
                    throw new InvalidRequestException(e.getMessage());
                }
                columns.put(column.name.duplicate(), type(column.getValidation_class()));
            }
        }
        Validators validators = new Validators(type(def.getKey_validation_class()), type(def.getDefault_validation_class()),
                columns);
        counterKinds(validators, names);
        return validators;
    }

    /**
     * A counter table's columns are all counters, another's none, refused in 3.11's words otherwise, the name as
     * {@code names} prints it.
     */
    static void counterKinds(Validators validators, AbstractType names) throws InvalidRequestException {
        boolean counters = validators.defaultValue() instanceof CounterColumnType;
        for (Map.Entry<ByteBuffer, AbstractType> c : validators.columns().entrySet()) {
            if ((c.getValue() instanceof CounterColumnType) != counters) {
                throw new InvalidRequestException("Cannot add a " + (counters ? "non counter" : "counter") + " column ("
                        + names.getString(ThriftConversion.bytes(c.getKey())) + ") in a " + (counters ? "" : "non ")
                        + "counter column family");
            }
        }
    }

    private static AbstractType type(String text) throws InvalidRequestException {
        return text == null ? Validators.NONE.key() : DefinitionReader.type(text, "validation class");
    }
}

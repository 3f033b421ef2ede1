package sibyl.cql;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import sibyl.db.marshal.AbstractType;

/**
 * What each bind marker of a statement stands for, as 3.11 reports it to prepare_cql3_query: a column's name, or for
 * a marker named {@code :name} or one of {@code [limit]}, {@code [ttl]}, {@code [timestamp]}, 3.11's description
 * {@code ColumnSpecification{name=..., type=...}}; and the type whose bytes it takes.
 */
final class Specs {
    record Spec(String name, AbstractType type) {
    }

    private final Spec[] specs;

    Specs(int markers) {
        specs = new Spec[markers];
    }

    /** Notes what {@code term} stands for, when it is a marker. */
    void note(Term term, String column, boolean isColumn, AbstractType type) {
        if (!(term instanceof Term.Marker m)) return;
        AbstractType t = CqlTypes.unreversed(type);
        String shown = isColumn && m.name() == null ? column
                : "ColumnSpecification{name=" + (m.name() != null ? m.name() : column) + ", type=" + t.className() + "}";
        specs[m.index()] = new Spec(shown, t);
    }

    List<String> names() {
        List<String> names = new ArrayList<>(specs.length);
        for (Spec s : specs) names.add(s.name());
        return names;
    }

    List<String> types() {
        List<String> types = new ArrayList<>(specs.length);
        for (Spec s : specs) types.add(s.type().className());
        return types;
    }

    AbstractType type(int marker) {
        return specs[marker].type();
    }

    boolean complete() {
        return Arrays.stream(specs).allMatch(s -> s != null);
    }
}

package sibyl.db.marshal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a type string as Cassandra 3.11 takes one in CfDef's comparator_type and validation classes:
 * a short or full class name, with parameters for the types that have them: {@code CompositeType(T1,T2,...)},
 * {@code ReversedType(T)}, {@code DynamicCompositeType(a=>T1,b=>T2,...)}, nested at will, whitespace anywhere
 * between the parts. A bad string is refused with 3.11's text where 3.11 has one; where 3.11 silently ignored
 * trailing text or parameters of a type that takes none, this refuses it.
 */
public final class TypeParser {
    private final String text;
    private int at;

    private TypeParser(String text) {
        this.text = text;
    }

    /** @throws IllegalArgumentException with the reason, in 3.11's words where it has them */
    public static AbstractType parse(String text) {
        TypeParser parser = new TypeParser(text);
        AbstractType type = parser.type();
        parser.skipBlanks();
        if (parser.at < text.length()) throw parser.syntaxError("unexpected '" + text.charAt(parser.at) + "'");
        return type;
    }

    private AbstractType type() {
        skipBlanks();
        String name = identifier();
        if (name.isEmpty()) throw syntaxError("a type name was expected");
        String full = name.indexOf('.') < 0 ? AbstractType.PACKAGE + "." + name : name;
        skipBlanks();
        boolean parameters = at < text.length() && text.charAt(at) == '(';
        switch (full) {
            case AbstractType.PACKAGE + ".CompositeType":
                return new CompositeType(parameters ? typeList(full) : List.of());
            case AbstractType.PACKAGE + ".DynamicCompositeType":
                return new DynamicCompositeType(parameters ? aliases(full) : Map.of());
            case AbstractType.PACKAGE + ".ReversedType": {
                List<AbstractType> base = parameters ? typeList(full) : List.of();
                if (base.size() != 1) throw invalidDefinition(full);
                return ReversedType.of(base.get(0));
            }
            default:
                if (parameters) throw invalidDefinition(full);
                return MarshalTypes.simple(name);
        }
    }

    private List<AbstractType> typeList(String owner) {
        List<AbstractType> types = new ArrayList<>();
        parameters(owner, () -> types.add(type()));
        return types;
    }

    private Map<Byte, AbstractType> aliases(String owner) {
        Map<Byte, AbstractType> aliases = new LinkedHashMap<>();
        parameters(owner, () -> {
            String alias = identifier();
            skipBlanks();
            if (alias.length() != 1 || !text.startsWith("=>", at)) throw invalidDefinition(owner);
            at += 2;
            aliases.put((byte) alias.charAt(0), type());
        });
        return aliases;
    }

    /**
     * A parenthesised list of {@code owner}'s parameters, each read by {@code parameter}, separated by commas; a
     * list that does not parse is refused as 3.11 refuses it, naming {@code owner}.
     */
    private void parameters(String owner, Runnable parameter) {
        at++; // '('
        try {
            skipBlanks();
            if (peek(')')) {
                at++;
                return;
            }
            while (true) {
                skipBlanks();
                parameter.run();
                skipBlanks();
                if (peek(')')) {
                    at++;
                    return;
                }
                if (!peek(',')) throw invalidDefinition(owner);
                at++;
            }
        } catch (IllegalArgumentException e) {
            throw invalidDefinition(owner);
        }
    }

    /** The characters 3.11 takes in a name. */
    private String identifier() {
        int from = at;
        while (at < text.length()) {
            char c = text.charAt(at);
            if (!Character.isLetterOrDigit(c) && c != '-' && c != '+' && c != '.' && c != '_' && c != '&') break;
            at++;
        }
        return text.substring(from, at);
    }

    private boolean peek(char c) {
        return at < text.length() && text.charAt(at) == c;
    }

    private void skipBlanks() {
        while (at < text.length() && Character.isWhitespace(text.charAt(at))) at++;
    }

    private static IllegalArgumentException invalidDefinition(String type) {
        return new IllegalArgumentException("Invalid definition for comparator " + type + ".");
    }

    private IllegalArgumentException syntaxError(String why) {
        return new IllegalArgumentException("Syntax error parsing '" + text + "' at char " + at + ": " + why);
    }
}

package sibyl.client.cli;

import sibyl.client.NameType;

/**
 * A key, name or value as written in a statement: quoted ({@code 'text'}) or bare ({@code 42},
 * {@code 0xcafe}, a UUID). A bare {@code 0x} literal stands for raw bytes, whatever the comparator.
 */
record Literal(String text, boolean quoted) {

    boolean isHex() {
        return !quoted && NameType.isHexLiteral(text);
    }

    /** As the user wrote it, for messages. */
    String display() {
        return quoted ? "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'" : text;
    }
}

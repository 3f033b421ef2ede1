package sibyl.dht;

/**
 * A position on the ring. Tokens of one partitioner compare with each other; comparing tokens of
 * different partitioners is a programming error and throws ClassCastException.
 */
public abstract class Token implements Comparable<Token> {
    Token() {
    }
}

package tilepdb;

/** A malformed board or pattern; the message is the text pdbgen prints. */
public final class BoardException extends Exception {
    public BoardException(String msg) { super(msg); }
}

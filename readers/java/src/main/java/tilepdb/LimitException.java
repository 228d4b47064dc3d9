package tilepdb;

/** A valid table this reader cannot hold (larger than one Java byte array). */
public final class LimitException extends Exception {
    LimitException(String msg) { super(msg); }
}

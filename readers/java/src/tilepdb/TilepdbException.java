package tilepdb;

/**
 * A problem with a table file's content, of one of the classes SPEC.md
 * names: {@link Kind#FORMAT} (not a table file, or corrupt structure;
 * {@link #offset} is the byte offset), {@link Kind#CHECKSUM} (header
 * SHA-256, raw_sha256 or a zstd frame checksum) or {@link Kind#UNSUPPORTED}
 * (another major version).
 */
public class TilepdbException extends Exception {
    /** Error classes of SPEC.md section 3. */
    public enum Kind { FORMAT, CHECKSUM, UNSUPPORTED }

    public final Kind kind;
    /** Byte offset of the offending field for FORMAT, else -1. */
    public final long offset;

    TilepdbException(Kind kind, long offset, String msg) {
        super(msg);
        this.kind = kind;
        this.offset = offset;
    }

    static TilepdbException format(long off, String msg) {
        return new TilepdbException(Kind.FORMAT, off, "tilepdb: invalid table file at byte " + off + ": " + msg);
    }

    static TilepdbException checksum(String what, String want, String got) {
        String msg = want.isEmpty() && got.isEmpty() ? "tilepdb: " + what + " mismatch"
                : "tilepdb: " + what + " mismatch: file says " + want + ", content hashes to " + got;
        return new TilepdbException(Kind.CHECKSUM, -1, msg);
    }

    static TilepdbException unsupported(int major, int minor) {
        return new TilepdbException(Kind.UNSUPPORTED, -1, "tilepdb: table file format version " + major + "." + minor
                + " is not supported (this reader supports " + TableReader.MAJOR_VERSION + ".x, up to "
                + TableReader.MAJOR_VERSION + "." + TableReader.MINOR_VERSION + ")");
    }

    /** The same error with the file path in front of the message. */
    TilepdbException withPath(String path) {
        return new TilepdbException(kind, offset, path + ": " + getMessage());
    }
}

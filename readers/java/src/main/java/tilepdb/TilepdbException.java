package tilepdb;

/**
 * A problem with a table file's content, of one of the classes of SPEC.md
 * section 3: {@link Kind#FORMAT} (not a table file, or corrupt; {@link
 * #offset} is the byte offset), {@link Kind#CHECKSUM} (header SHA-256,
 * payload_sha256, a zstd frame checksum or raw_sha256), {@link
 * Kind#UNSUPPORTED} (ranking_version, bits_per_entry or encoding not
 * implemented) or {@link Kind#UNSUPPORTED_VERSION} (a major version other
 * than 1 and 2); and {@link Kind#SET} for a set file (SPEC.md section 10)
 * that is malformed or does not hold together with its tables
 * ({@link SetFileException}).
 */
public class TilepdbException extends Exception {
    /** Error classes of SPEC.md section 3. */
    public enum Kind { FORMAT, CHECKSUM, UNSUPPORTED, UNSUPPORTED_VERSION, SET;

        /** The class name used by SPEC.md and the conformance kit: format, checksum, unsupported, unsupported-version (and set). */
        public String specName() { return name().toLowerCase().replace('_', '-'); }
    }

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

    static TilepdbException unsupportedVersion(int major, int minor) {
        return new TilepdbException(Kind.UNSUPPORTED_VERSION, -1, "tilepdb: table file format version " + major + "." + minor
                + " is not supported (this reader supports 1.x and 2.x)");
    }

    static TilepdbException unsupported(long off, String msg) {
        return new TilepdbException(Kind.UNSUPPORTED, off, "tilepdb: unsupported table file at byte " + off + ": " + msg);
    }

    /** The same error with the file path in front of the message. */
    TilepdbException withPath(String path) {
        return new TilepdbException(kind, offset, path + ": " + getMessage());
    }
}

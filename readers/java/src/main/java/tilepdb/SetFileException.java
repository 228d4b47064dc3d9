package tilepdb;

/**
 * A set file (format/SPEC.md sections 10 and 12) that is malformed, of another
 * version, or does not hold together with its tables (Go: format.ErrSet):
 * bad data, like a corrupt table ({@link TilepdbException.Kind#SET}). The
 * message names the set file and, where there is one, the part.
 */
public final class SetFileException extends TilepdbException {
    /** The set file as named by the caller. */
    public final String file;
    /** The part (from 1; within its partition for a catalogue) the error is about, or 0. */
    public final int part;
    /** The partition (from 1) of a catalogue (SPEC.md section 12) the error is about, or 0. */
    public final int partition;

    SetFileException(String msg, String file, int part) {
        this(msg, file, part, 0);
    }

    SetFileException(String msg, String file, int part, int partition) {
        super(Kind.SET, -1, msg);
        this.file = file;
        this.part = part;
        this.partition = partition;
    }
}

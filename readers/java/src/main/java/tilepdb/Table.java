package tilepdb;

import java.util.List;

/** One decoded, verified table: header fields, pattern and values. */
public final class Table {
    /** The header as read (checked); encoding is "raw bytes" in format 1, payloadSha256 "" there. */
    public record Header(int width, int height, int[] goal, String goalName, int[] tiles, String kind, String ranking,
            int rankingVersion, long entries, int bitsPerEntry, int maxValue, long[] histogram, String rawSha256,
            String generator, int frameSize, long[] frames, String encoding, String payloadSha256) {}

    public final Header header;
    public final Pattern pattern;
    /** values[index] = moves, unsigned (use & 0xff); index: the rank, or {@link Regions#index} for a zero-aware table. */
    public final byte[] values;
    public final int major, minor;
    /** A zero-aware table's region numbering (SPEC.md section 11), else null. */
    public final Regions regions;

    Table(Header header, Pattern pattern, byte[] values, int major, int minor, Regions regions) {
        this.header = header;
        this.pattern = pattern;
        this.values = values;
        this.major = major;
        this.minor = minor;
        this.regions = regions;
    }

    /** Whether the table is of kind zero-aware. */
    public boolean zeroAware() { return regions != null; }

    /** Fast path for a solver's inner loop: the value of the state pos; nothing checked. */
    public int value(byte[] pos) {
        return values[(int) (regions != null ? regions.index(pos) : pattern.rank(pos))] & 0xff;
    }

    /**
     * Checked lookup of a board (tile per cell, 0 = blank), with the rule of
     * {@link TableSet#lookup}: throws BoardException for a malformed board and
     * UnsolvableException for one that cannot reach the file's goal, exact
     * and additive tables alike.
     */
    public int lookup(int[] board) throws BoardException, UnsolvableException {
        return new TableSet(List.of(this)).lookup(board);
    }
}

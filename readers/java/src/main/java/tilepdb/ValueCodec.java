package tilepdb;

/**
 * The value-decoding step: from the stored bytes of each frame (verified
 * zstd content) to one value (moves) per rank. Kept apart from the
 * container (frames, checksums) and the ranking so that an encoding can be
 * added here alone; a codec is chosen by the major version and, in format
 * 2, the header key {@code encoding} (SPEC.md section 8).
 */
interface ValueCodec {
    String name();

    /** Stored bytes of a frame of e entries. */
    long storedSize(long e);

    /** Writes the e entries of one frame from its stored bytes into dst[off, off+e); null or what is wrong. */
    String unpack(byte[] stored, byte[] dst, int off, int e);

    /**
     * Turns the unpacked table into values in place (regions: a zero-aware
     * table's, else null); null, or {index, value} of a value above 254.
     */
    long[] finish(byte[] values, Pattern p, Regions regions);

    /** Format 1.x: the stored bytes are the values. */
    ValueCodec BYTES = new ValueCodec() {
        public String name() { return "raw bytes"; }

        public long storedSize(long e) { return e; }

        public String unpack(byte[] stored, byte[] dst, int off, int e) {
            if (stored != dst) System.arraycopy(stored, 0, dst, off, e);
            return null;
        }

        public long[] finish(byte[] values, Pattern p, Regions regions) { return null; }
    };

    /** Format 2, manhattan-half-4bit: two codes per byte, low nibble first; value = m(r) + 2 code. */
    ValueCodec HALF_4BIT = new ValueCodec() {
        public String name() { return "manhattan-half-4bit"; }

        public long storedSize(long e) { return (e + 1) / 2; }

        public String unpack(byte[] stored, byte[] dst, int off, int e) {
            int full = e >> 1;
            for (int j = 0; j < full; j++) {
                int b = stored[j] & 0xff;
                dst[off + 2 * j] = (byte) (b & 15);
                dst[off + 2 * j + 1] = (byte) (b >> 4);
            }
            if ((e & 1) != 0) {
                int b = stored[full] & 0xff;
                if ((b >> 4) != 0) return "padding nibble of the last byte is " + (b >> 4) + ", want 0";
                dst[off + e - 1] = (byte) (b & 15);
            }
            return null;
        }

        public long[] finish(byte[] values, Pattern p, Regions regions) {
            return regions != null ? Manhattan.decodeZeroAware(values, regions) : Manhattan.decodeCodes(values, p);
        }
    };

    /** Format 2, manhattan-half-8bit: one code per byte. */
    ValueCodec HALF_8BIT = new ValueCodec() {
        public String name() { return "manhattan-half-8bit"; }

        public long storedSize(long e) { return e; }

        public String unpack(byte[] stored, byte[] dst, int off, int e) {
            if (stored != dst) System.arraycopy(stored, 0, dst, off, e);
            return null;
        }

        public long[] finish(byte[] values, Pattern p, Regions regions) {
            return regions != null ? Manhattan.decodeZeroAware(values, regions) : Manhattan.decodeCodes(values, p);
        }
    };

    /** The codec for a major version and (format 2) encoding, or null when not implemented. */
    static ValueCodec forVersion(int major, String encoding) {
        if (major == 1) return BYTES;
        if (major == 2 && "manhattan-half-4bit".equals(encoding)) return HALF_4BIT;
        if (major == 2 && "manhattan-half-8bit".equals(encoding)) return HALF_8BIT;
        return null;
    }
}

package tilepdb;

/**
 * The value-decoding step: from the verified, decompressed payload to one
 * value (moves) per rank. Kept apart from the container (frames,
 * checksums) and the ranking so that another encoding of the values can be
 * added; a codec is chosen by the file's major version.
 */
interface ValueCodec {
    /** Payload length in bytes for a table of the given entries. */
    long payloadLength(long entries);

    /** values[rank] = moves. */
    byte[] decode(byte[] payload, Pattern pattern);

    /** Format 1.x: one unsigned byte per entry; the payload is the table. */
    ValueCodec BYTES = new ValueCodec() {
        public long payloadLength(long entries) { return entries; }

        public byte[] decode(byte[] payload, Pattern pattern) { return payload; }
    };

    /** The codec for a major version, or null. */
    static ValueCodec forMajor(int major) {
        return major == 1 ? BYTES : null;
    }
}

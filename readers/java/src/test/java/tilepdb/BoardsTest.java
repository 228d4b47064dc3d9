package tilepdb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Board syntax (cmd/pdbgen/boards.go) and pdbgen's messages for bad boards. */
class BoardsTest {
    static final byte[] GOAL = {1, 2, 3, 4, 5, 6, 7, 8, 0};

    @ParameterizedTest(name = "\"{0}\"")
    @DisplayName("accepted board syntax: separators, signs, blanks, Unicode spaces")
    @ValueSource(strings = {
        "1 2 3 4 5 6 7 8 0",
        "  1\t2 ,3, 4 5 6 7 8 _\r",
        "1,2,3,4,5,6,7,8,X",
        "+1 02 3 4 5 6 7 8 -0",
        "\u0085 \u3000 1 2 3 4 5 6 7 8 0 \u2029",
    })
    void accepted(String line) {
        Boards.Parsed r = Boards.parse(line, 9);
        assertNull(r.error());
        assertArrayEquals(GOAL, r.board());
    }

    static Stream<Arguments> refused() {
        return Stream.of(
                Arguments.of(",,,", "bad board: empty line"),
                Arguments.of("1 2 3", "bad board: 3 cells, want 9"),
                // a cell left empty by a comma (issue 22), named before the count
                Arguments.of("  1\t2 ,3,,4 5 6 7 8 _\r", "bad board: cell 3: empty (a comma with no tile before it)"),
                Arguments.of("1, \t,2", "bad board: cell 1: empty (a comma with no tile before it)"),
                Arguments.of(",1,2,3,4,5,6,7,8,0", "bad board: cell 0: empty (a comma with no tile before it)"),
                Arguments.of("1,2,3,4,5,6,7,8,0,", "bad board: cell 9: empty (a comma with no tile before it)"),
                Arguments.of("1 2 3 4 5 6 7 8 0 ,\t", "bad board: cell 9: empty (a comma with no tile before it)"),
                Arguments.of("1 2 3 4 5 6 7 8 -1", "bad board: cell 8: tile -1 out of range 0..8"),
                Arguments.of("1 2 3 4 5 6 7 8 99999999999999999999", "bad board: cell 8: \"99999999999999999999\" is not a tile number or blank (0, x, _)"),
                Arguments.of("1 2 3 4 5 6 7 8 é\u00a0\u0007", "bad board: cell 8: \"é\\u00a0\\a\" is not a tile number or blank (0, x, _)"),
                Arguments.of("1 2 3 4 5 6 7 8 \uff18", "bad board: cell 8: \"\uff18\" is not a tile number or blank (0, x, _)"),
                Arguments.of("1 2 3 4 5 6 7 8 \u200b\ud83d\ude00", "bad board: cell 8: \"\\u200b\ud83d\ude00\" is not a tile number or blank (0, x, _)"),
                Arguments.of("\ufeff1 2 3 4 5 6 7 8 0", "bad board: cell 0: \"\\ufeff1\" is not a tile number or blank (0, x, _)"),
                Arguments.of("1 1 3 4 5 6 7 8 0", "bad board: tile 1 appears twice"),
                Arguments.of("0 2 3 4 5 6 7 8 0", "bad board: more than one blank"));
    }

    @ParameterizedTest(name = "{1}")
    @DisplayName("refused boards get pdbgen's message")
    @MethodSource
    void refused(String line, String message) {
        assertEquals(message, Boards.parse(line, 9).error());
    }

    @Test
    @DisplayName("goQuote escapes invalid UTF-8 byte by byte, as Go's %q")
    void goQuoteEscapesInvalidUtf8() {
        byte[] bad = {0x61, (byte) 0xff, (byte) 0xed, (byte) 0xa0, (byte) 0x80};
        assertEquals("\"a\\xff\\xed\\xa0\\x80\"", Boards.goQuote(bad, 0, bad.length));
    }
}

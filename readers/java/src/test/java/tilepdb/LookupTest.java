package tilepdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static tilepdb.TestFiles.kit;
import static tilepdb.TestFiles.permutations;
import static tilepdb.TestFiles.pos;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Checked lookups in tables and sets of tables (format.Set.Lookup). */
class LookupTest {
    static Table additive, exact;

    @BeforeAll
    static void read() throws Exception {
        additive = TableReader.readFile(kit.resolve("good-additive.pdb").toString());
        exact = TableReader.readFile(kit.resolve("good-exact.pdb").toString());
    }

    @Test
    @DisplayName("the worked example of SPEC.md and the goal")
    void workedExampleAndGoal() throws Exception {
        assertEquals(additive.values[92] & 0xff, additive.lookup(new int[] {4, 1, 0, 3, 2, 5, 6, 7, 8}), "worked example");
        assertEquals(0, exact.lookup(new int[] {1, 2, 3, 4, 5, 0}), "goal");
    }

    static final int[] SWAPPED = {1, 4, 0, 3, 2, 5, 6, 7, 8};

    static Stream<Arguments> unsolvable() {
        Executable exactTable = () -> exact.lookup(new int[] {2, 1, 3, 4, 5, 0});
        Executable additiveTable = () -> additive.lookup(SWAPPED);
        Executable additiveSet = () -> new TableSet(List.of(additive)).lookup(SWAPPED);
        Executable exactSet = () -> new TableSet(List.of(exact)).heuristicBoard(new int[] {2, 1, 3, 4, 5, 0});
        return Stream.of(Arguments.of("exact table", exactTable), Arguments.of("additive table", additiveTable),
                Arguments.of("additive set", additiveSet), Arguments.of("exact set, heuristicBoard", exactSet));
    }

    /*
     * One swap of two tiles changes the parity class: refused by exact and
     * additive tables alike (format.Set.Lookup), though the additive table
     * has a value for that placement.
     */
    @ParameterizedTest(name = "{0}")
    @DisplayName("a board of the other parity class is an UnsolvableException")
    @MethodSource
    void unsolvable(String what, Executable lookup) throws Exception {
        assertTrue(additive.value(pos(SWAPPED)) >= 0, "the additive table has a value for the placement");
        UnsolvableException x = assertThrows(UnsolvableException.class, lookup);
        assertEquals("board is not solvable for goal blank-last", x.getMessage());
    }

    @Test
    @DisplayName("a board of the wrong size is a BoardException")
    void shortBoard() {
        BoardException x = assertThrows(BoardException.class, () -> additive.lookup(new int[] {1, 4, 0, 3, 2, 5, 6, 7}));
        assertEquals("bad board: 8 cells, want 9", x.getMessage());
    }

    static Stream<Arguments> badSets() {
        return Stream.of(Arguments.of("additive twice", List.of(additive, additive)), Arguments.of("additive and exact", List.of(additive, exact)),
                Arguments.of("exact twice", List.of(exact, exact)), Arguments.of("no table", List.<Table>of()));
    }

    @ParameterizedTest(name = "{0}")
    @DisplayName("sets that do not hold together are refused")
    @MethodSource
    void badSets(String what, List<Table> tables) {
        assertThrows(IllegalArgumentException.class, () -> new TableSet(tables));
    }

    @Test
    @DisplayName("checked lookup agrees with the parity rule on every 3x2 board")
    void parityRuleOnEvery3x2Board() throws Exception {
        TableSet set = new TableSet(List.of(exact));
        int solvable = 0;
        for (int[] b : permutations(6)) {
            byte[] p = pos(b);
            if (exact.pattern.solvablePositions(p)) {
                solvable++;
                assertEquals(exact.values[(int) exact.pattern.rank(p)] & 0xff, set.lookup(b), "value of " + Arrays.toString(b));
            } else {
                assertThrows(UnsolvableException.class, () -> set.lookup(b), "unsolvable " + Arrays.toString(b));
            }
        }
        assertEquals(360, solvable, "solvable boards");
    }
}

package tilepdb;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * Tables forming one heuristic: one exact table, or additive tables on the
 * same board and goal with pairwise disjoint tiles (their sum is
 * admissible, Korf and Felner 2002).
 */
public final class TableSet {
    /** Problem grouping tables (not a file problem). */
    public static final class SetException extends Exception {
        SetException(String msg) { super(msg); }
    }

    public final List<Table> tables;
    public final int w, h, n;
    public final byte[] goal;
    public final boolean exact;
    private final Pattern[] patterns;
    private final byte[][] values;

    /** Groups tables (see the class comment); throws IllegalArgumentException with the reason. */
    public TableSet(List<Table> tables) {
        try {
            check(tables, null);
        } catch (SetException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        this.tables = List.copyOf(tables);
        Pattern first = tables.get(0).pattern;
        this.w = first.w;
        this.h = first.h;
        this.n = first.n;
        this.goal = first.goal.clone();
        this.exact = first.exact;
        this.patterns = new Pattern[tables.size()];
        this.values = new byte[tables.size()][];
        for (int i = 0; i < tables.size(); i++) {
            patterns[i] = tables.get(i).pattern;
            values[i] = tables.get(i).values;
        }
    }

    /** Groups tables named in errors by names (file paths). */
    public static TableSet of(List<Table> tables, List<String> names) throws SetException {
        check(tables, names);
        return new TableSet(tables);
    }

    private static void check(List<Table> tables, List<String> names) throws SetException {
        if (tables.isEmpty()) throw new SetException("tilepdb: empty set: need at least one table");
        List<String> nm = names;
        if (nm == null) {
            nm = new ArrayList<>();
            for (int i = 0; i < tables.size(); i++) nm.add("table " + (i + 1));
        }
        Pattern first = tables.get(0).pattern;
        Map<Integer, Integer> owner = new HashMap<>();
        for (int i = 0; i < tables.size(); i++) {
            Pattern p = tables.get(i).pattern;
            String desc = nm.get(i) + " (" + p + ")";
            if (p.w != first.w || p.h != first.h)
                throw new SetException("tilepdb: " + desc + " is for a " + p.w + "x" + p.h + " board, " + nm.get(0) + " (" + first + ") for " + first.w + "x" + first.h);
            if (!java.util.Arrays.equals(p.goal, first.goal))
                throw new SetException("tilepdb: " + desc + " has goal \"" + Boards.format(p.goal) + "\", " + nm.get(0) + " has goal \"" + Boards.format(first.goal) + "\"");
            if (p.exact && tables.size() > 1)
                throw new SetException("tilepdb: " + desc + " is an exact table and must be used alone, not in a set of " + tables.size());
            StringJoiner shared = new StringJoiner(",");
            int other = -1;
            for (byte t : p.tiles) {
                Integer j = owner.get((int) t);
                if (j != null) {
                    shared.add(Integer.toString(t));
                    if (other < 0) other = j;
                }
            }
            if (other >= 0)
                throw new SetException("tilepdb: " + desc + " and " + nm.get(other) + " (" + tables.get(other).pattern + ") are not disjoint: both hold tile(s) " + shared);
            for (byte t : p.tiles) owner.put((int) t, i);
        }
    }

    /** Fast path: sum of the values for position vector pos; nothing checked, no allocation. */
    public int heuristic(byte[] pos) {
        int sum = 0;
        for (int i = 0; i < patterns.length; i++) sum += values[i][(int) patterns[i].rank(pos)] & 0xff;
        return sum;
    }

    /** Checked lookup, as pdbgen lookup does it; throws BoardException. */
    public int heuristicBoard(int[] board) throws BoardException {
        String err = Boards.validate(board, n);
        if (err != null) throw new BoardException(err);
        byte[] pos = new byte[n];
        for (int c = 0; c < n; c++) pos[board[c]] = (byte) c;
        if (exact && !patterns[0].solvablePositions(pos))
            throw new BoardException("board is not solvable for goal " + Boards.goalName(goal) + "; the exact table has no entry for it");
        return heuristic(pos);
    }
}

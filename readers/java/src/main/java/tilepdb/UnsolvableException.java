package tilepdb;

/**
 * A valid board that cannot reach the goal (the other parity class), for
 * exact and additive tables alike (format.ErrUnsolvable). Not a
 * {@link BoardException}: {@code pdbgen lookup} answers such a board
 * "unsolvable" and exits 0.
 */
public final class UnsolvableException extends Exception {
    public UnsolvableException(String goalName) { super("board is not solvable for goal " + goalName); }
}

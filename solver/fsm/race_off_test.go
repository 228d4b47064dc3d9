//go:build !race

package fsm

// raceEnabled is true when the race detector is on: the exhaustive tests
// then check smaller boards or fewer moves.
const raceEnabled = false

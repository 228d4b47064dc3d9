//go:build race

package solver

// raceEnabled is true when the race detector is on: the exhaustive tests
// then check a sample instead of every state.
const raceEnabled = true

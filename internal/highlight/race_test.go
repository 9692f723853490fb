//go:build race

package highlight

// raceDetector: the race detector slows lexing ten times or more.
const raceDetector = true

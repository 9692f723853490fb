//go:build !race

package highlight

const raceDetector = false

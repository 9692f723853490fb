// Package skipper is a package whose tests skip, for loudskip's test.
package skipper

import (
	"testing"

	"errref/internal/loudskip"
)

var things = loudskip.New("widget tests", "install a widget to run them")

func TestMain(m *testing.M) { loudskip.Main(m, things) }

func TestOne(t *testing.T)  { things.Skip(t, "no widget here") }
func TestTwo(t *testing.T)  { things.Skip(t, "no widget here") }
func TestRuns(t *testing.T) {}

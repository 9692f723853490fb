package site

import (
	"testing"

	"errref/internal/browsertest"
	"errref/internal/loudskip"
)

// TestMain says, without -v too, how many browser tests skipped.
func TestMain(m *testing.M) { loudskip.Main(m, browsertest.Skipped) }

package errref_test

import (
	"os"
	"testing"

	"errref/internal/browsertest"
)

// The browser tests share one Chromium, each in a browser context of its own.
func TestMain(m *testing.M) { os.Exit(browsertest.Main(m)) }

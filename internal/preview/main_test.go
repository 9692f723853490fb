package preview

import (
	"os"
	"testing"

	"errref/internal/needs"
)

// The preview builds with the environment's settings, as the build does:
// the tests run without the publisher's.
func TestMain(m *testing.M) {
	needs.Hermetic()
	os.Exit(m.Run())
}

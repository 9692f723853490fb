package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

// TestDeployCompilesOnce holds netlify.toml's build command to one go
// build of the site's build and this function. Netlify starts each deploy
// with an empty build cache: one go command compiles the standard library
// and every shared package once, with one set of settings, and the two
// programs' own packages side by side (docs/speed.md); two commands with
// other settings compiled everything twice (34 s to 63 s on two cores).
// The build then runs with -publish, and is removed from functions/, where
// Netlify would deploy it as a function too.
func TestDeployCompilesOnce(t *testing.T) {
	var cfg struct {
		Build struct {
			Command     string
			Environment map[string]string
		}
	}
	if _, err := toml.DecodeFile(filepath.Join("..", "..", "netlify.toml"), &cfg); err != nil {
		t.Fatal(err)
	}
	var steps [][]string
	for _, part := range strings.Split(cfg.Build.Command, "&&") {
		steps = append(steps, strings.Fields(part))
	}
	var gos [][]string
	for _, f := range steps {
		if len(f) > 0 && f[0] == "go" {
			gos = append(gos, f)
		}
	}
	switch {
	case len(gos) != 1 || len(gos[0]) < 2 || gos[0][1] != "build":
		t.Errorf("netlify.toml's command has %d go commands, want one go build of ./cmd/build and ./cmd/event: %q", len(gos), cfg.Build.Command)
	case !slices.Contains(gos[0], "./cmd/build") || !slices.Contains(gos[0], "./cmd/event") || !slices.Contains(gos[0], "functions/"):
		t.Errorf("the go build does not build ./cmd/build and ./cmd/event into functions/: %q", gos[0])
	}
	for _, want := range [][]string{{"functions/build", "-publish"}, {"rm", "functions/build"}} {
		if !slices.ContainsFunc(steps, func(f []string) bool { return slices.Equal(f, want) }) {
			t.Errorf("netlify.toml's command does not run %q: %q", strings.Join(want, " "), cfg.Build.Command)
		}
	}
	for _, k := range []string{"CGO_ENABLED", "GOOS", "GOARCH"} {
		if cfg.Build.Environment[k] == "" {
			t.Errorf("[build.environment] does not set %s: the function must be a static linux/amd64 binary", k)
		}
	}
}

package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

// TestPublishCompilesOnce holds netlify.toml's build command to one set of
// compile settings for its two Go commands. Netlify starts each deploy with
// an empty build cache; when the function is compiled with other settings
// than the site's build (CGO_ENABLED, -trimpath, GOOS...), Go compiles the
// standard library and every shared package a second time, which would take the
// deploy from about 34 s to 63 s on two cores.
func TestPublishCompilesOnce(t *testing.T) {
	var cfg struct {
		Build struct {
			Command     string
			Environment map[string]string
		}
	}
	if _, err := toml.DecodeFile(filepath.Join("..", "..", "netlify.toml"), &cfg); err != nil {
		t.Fatal(err)
	}
	var settings []string
	for _, part := range strings.Split(cfg.Build.Command, "&&") {
		s, ok := compileSettings(part)
		if !ok {
			continue
		}
		settings = append(settings, s)
	}
	if len(settings) != 2 {
		t.Fatalf("netlify.toml's command has %d go commands, want 2 (the site's build and the function): %q", len(settings), cfg.Build.Command)
	}
	if settings[0] != settings[1] {
		t.Errorf("the two go commands compile with different settings, so the second compiles everything again:\n  %s\n  %s\nset them once in [build.environment]", settings[0], settings[1])
	}
	for _, k := range []string{"CGO_ENABLED", "GOOS", "GOARCH"} {
		if cfg.Build.Environment[k] == "" {
			t.Errorf("[build.environment] does not set %s: the function must be a static linux/amd64 binary", k)
		}
	}
}

// compileSettings returns what of a shell command "[VAR=v ...] go run|build
// [flags] ..." changes how packages compile, as a canonical string, and
// whether it is a go command at all. Build tags and -ldflags are left out:
// tags only pick files, and the linker's flags do not touch compiled
// packages.
func compileSettings(cmd string) (string, bool) {
	f := strings.Fields(cmd)
	var env []string
	for len(f) > 0 && strings.Contains(f[0], "=") {
		env = append(env, f[0])
		f = f[1:]
	}
	if len(f) < 2 || f[0] != "go" || (f[1] != "run" && f[1] != "build") {
		return "", false
	}
	var flags []string
	for _, a := range f[2:] {
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") {
			continue
		}
		switch name {
		case "trimpath", "race", "msan", "asan", "cover", "gcflags", "asmflags", "buildmode", "compiler", "pgo":
			flags = append(flags, a)
		}
	}
	slices.Sort(env)
	slices.Sort(flags)
	return strings.Join(append(env, flags...), " "), true
}

package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestPublishRefusesAPageOverTheBudget: a page that does not fit one round
// trip is refused by -publish, by name, before the output folder is
// touched; the default build writes it and warns.
func TestPublishRefusesAPageOverTheBudget(t *testing.T) {
	bin := command(t)
	root := newSite(t)
	rnd := rand.New(rand.NewPCG(1, 2))
	var words []string
	for range 6000 {
		words = append(words, fmt.Sprintf("%x", rnd.Uint32()))
	}
	page := "+++\ntitle = \"Heavy\"\ndescription = \"Words that do not compress.\"\n+++\n\n" + strings.Join(words, " ") + "\n\n{{< marker >}}\n"
	if err := os.WriteFile(filepath.Join(root, "content", "heavy.md"), []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(root, "public")
	run := func(args ...string) (string, int) {
		cmd := exec.Command(bin, append([]string{"-root", root, "-out", out}, args...)...)
		// Every setting, as Netlify has them; nothing of this environment.
		cmd.Env = []string{"URL=https://errors.lilulab.net", "SITE_STOREFRONT_URL=https://lilulab.gumroad.com/l/guide",
			"SITE_WALLET_ADDRESS=0x52908400098527886E0F7030069857D2E4169EE7", "SITE_PAYMENT_CONTACT=orders@lilulab.net", "SITE_CONTACT=errors@lilulab.net"}
		b, _ := cmd.CombinedOutput()
		return string(b), cmd.ProcessState.ExitCode()
	}
	got, code := run("-publish")
	if want := "content/heavy.md: /heavy/ is "; code != 1 || !strings.Contains(got, want) || !strings.Contains(got, "B over the budget of one round trip, 14600 B") {
		t.Errorf("-publish: exit %d, output:\n%s\nwant exit 1 and %q with its size and the budget", code, got, want)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("-publish refused, and wrote %s: %v", out, err)
	}
	got, code = run()
	if code != 0 || !strings.Contains(got, "warning: content/heavy.md: /heavy/ is ") || !strings.Contains(got, "budget 14600 B gzip: OVER") {
		t.Errorf("the default build: exit %d, output:\n%s\nwant exit 0, a warning naming the page, and OVER in the summary", code, got)
	}
	if _, err := os.Stat(filepath.Join(out, "heavy", "index.html")); err != nil {
		t.Error(err)
	}
}

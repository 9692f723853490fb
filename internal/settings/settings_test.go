package settings

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

func TestPlaceholders(t *testing.T) {
	real := Settings{
		BaseURL:        "https://errors.lilulab.net",
		Contact:        "lilu@ability.ai",
		Storefront:     "https://lilulab.gumroad.com/l/guide",
		Wallet:         "0x52908400098527886E0F7030069857D2E4169EE7",
		PaymentContact: "orders@lilulab.net",
	}
	for _, tc := range []struct {
		name string
		set  func(*Settings)
		want string // in the one problem found; "" for none
	}{
		{"real values", func(*Settings) {}, ""},
		{"all-zero wallet", func(s *Settings) { s.Wallet = "0x0000000000000000000000000000000000000000" }, `wallet_address "0x0000000000000000000000000000000000000000" repeats one digit`},
		{"one digit repeated, mixed case", func(s *Settings) { s.Wallet = "0xaAaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" }, "wallet_address"},
		{"storefront on example.com", func(s *Settings) { s.Storefront = "https://example.com/l/guide" }, `storefront_url "https://example.com/l/guide" is on a host reserved for examples`},
		{"storefront on a subdomain of example.org", func(s *Settings) { s.Storefront = "https://store.example.org/x" }, "storefront_url"},
		{"storefront on .invalid", func(s *Settings) { s.Storefront = "https://shop.invalid/x" }, "storefront_url"},
		{"base URL on example.net", func(s *Settings) { s.BaseURL = "https://example.net" }, "base_url"},
		{"base URL on .test", func(s *Settings) { s.BaseURL = "https://site.test" }, "base_url"},
		{"base URL over plain http", func(s *Settings) { s.BaseURL = "http://errors.lilulab.net" }, `base_url "http://errors.lilulab.net" is plain http`},
		{"contact at example.com", func(s *Settings) { s.Contact = "me@example.com" }, "contact"},
		{"payment contact at example.org", func(s *Settings) { s.PaymentContact = "pay@example.org" }, `payment_contact "pay@example.org" is at a domain reserved for examples`},
		{"payment contact on .invalid", func(s *Settings) { s.PaymentContact = "hash@shop.invalid" }, "payment_contact"},
		{"a host that merely holds the word", func(s *Settings) { s.Storefront = "https://counterexample.com/l/x" }, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := real
			tc.set(&s)
			got := s.Placeholders()
			switch {
			case tc.want == "" && len(got) > 0:
				t.Errorf("Placeholders() = %q, want none", got)
			case tc.want != "" && (len(got) != 1 || !strings.Contains(got[0], tc.want)):
				t.Errorf("Placeholders() = %q, want one holding %q", got, tc.want)
			}
		})
	}
}

// TestStorefrontMustBeHTTPS: a storefront reached over plain http is
// refused in every build, with the setting's name.
func TestStorefrontMustBeHTTPS(t *testing.T) {
	s := Settings{Language: "en", Endpoint: "/api/event", Storefront: "http://lilulab.gumroad.com/l/guide"}
	if err := s.validate(nil, nil); err == nil || !strings.Contains(err.Error(), "storefront_url") {
		t.Errorf("validate() = %v, want a storefront_url error", err)
	}
}

// TestPaymentContact: the address for the transaction hash is a setting of
// its own, read from site.toml and overridden by SITE_PAYMENT_CONTACT,
// listed as missing while unset (so -publish refuses), and checked as an
// e-mail address in every build.
func TestPaymentContact(t *testing.T) {
	for _, tc := range []struct {
		name, toml, env string
		want            string // the value loaded
		err             string // in Load's error; "" for none
	}{
		{"unset", "", "", "", ""},
		{"from site.toml", `payment_contact = "orders@lilulab.net"`, "", "orders@lilulab.net", ""},
		{"the environment wins", `payment_contact = "orders@lilulab.net"`, "hash@lilulab.net", "hash@lilulab.net", ""},
		{"not an address", `payment_contact = "send it to us"`, "", "", `payment_contact "send it to us" must be a bare e-mail address`},
		{"a name and an address", "", "Lilu <orders@lilulab.net>", "", "payment_contact"},
		// Valid to the mail parser, but a mailto: link's query: a Cc to another.
		{"a mailto query", "", "a?cc=x@lilulab.net", "", "payment_contact"},
		{"a fragment", "", "a#b@lilulab.net", "", "payment_contact"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, File), []byte(tc.toml+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			s, err := Load(os.DirFS(dir), func(k string) string {
				if k == "SITE_PAYMENT_CONTACT" {
					return tc.env
				}
				return ""
			})
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("Load() error = %v, want one holding %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if s.PaymentContact != tc.want {
				t.Errorf("PaymentContact = %q, want %q", s.PaymentContact, tc.want)
			}
			missing := strings.Join(s.Missing(), "; ")
			if unset := tc.want == ""; unset != strings.Contains(missing, "payment_contact (or SITE_PAYMENT_CONTACT)") {
				t.Errorf("Missing() = %q with payment_contact %q", missing, s.PaymentContact)
			}
		})
	}
}

// TestABlankValueIsUnset: a value of spaces in site.toml is no value, as a
// blank SITE_ variable is not: a publisher or guide of "  " would print
// "Published by  ," and pass -publish.
func TestABlankValueIsUnset(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, File), []byte("publisher = \"  \"\nguide = \" \"\ncontact = \" a@b.org \"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Load(os.DirFS(dir), func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	if s.Publisher != "" || s.Guide != "" || s.Contact != "a@b.org" {
		t.Errorf("publisher %q, guide %q, contact %q", s.Publisher, s.Guide, s.Contact)
	}
	if missing := strings.Join(s.Missing(), "; "); !strings.Contains(missing, "publisher") {
		t.Errorf("Missing() = %q, want publisher in it", missing)
	}
}

// TestABlankValueTakesTheDefault: a value of spaces is unset, so a setting
// with a default keeps it: title = " " is not an index titled "", nor
// language = " " a refused build.
func TestABlankValueTakesTheDefault(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, File), []byte("title = \" \"\ndescription = \"\"\nlanguage = \" \"\nendpoint = \"  \"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Load(os.DirFS(dir), func(string) string { return "" })
	want, _ := Load(os.DirFS(t.TempDir()), func(string) string { return "" }) // no site.toml: the defaults
	if err != nil || s != want {
		t.Errorf("Load = %+v, %v; want %+v", s, err, want)
	}
}

// TestABadValueIsNamedWhereItWasSet: a value that an environment variable
// set (Netlify's UI, or SITE_* in a shell) is not in site.toml, whose line
// says base_url = "": the error must name the variable, or the writer
// edits the wrong file. Seen with SITE_BASE_URL=errors.quiverdb.dev
// go run ./cmd/build -publish, which said
// `site.toml: base_url "errors.quiverdb.dev" must be an absolute http(s) URL`.
func TestABadValueIsNamedWhereItWasSet(t *testing.T) {
	for _, tc := range []struct{ env, value string }{
		{"SITE_BASE_URL", "errors.quiverdb.dev"},
		{"URL", "errors.quiverdb.dev"},
		{"SITE_PAYMENT_CONTACT", "mailto:pay@quiverdb.dev"},
		{"SITE_WALLET_ADDRESS", "0x8ba1f109551bd432803012645ac136ddd64dba7"},
		{"SITE_STOREFRONT_URL", "http://quiverlab.gumroad.com/l/quiver-guide"},
	} {
		t.Run(tc.env, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, File), []byte("base_url = \"\"\npayment_contact = \"\"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := Load(os.DirFS(dir), func(k string) string {
				if k == tc.env {
					return tc.value
				}
				return ""
			})
			if err == nil {
				t.Fatalf("%s=%s was accepted", tc.env, tc.value)
			}
			if !strings.Contains(err.Error(), tc.env) {
				t.Errorf("%s=%s: error %q does not name %s, which set the value", tc.env, tc.value, err, tc.env)
			}
		})
	}
}

// TestABaseURLWithAPathIsRefused: every page links the site's files from
// the root (/style.css, /measure.js, /quiver/deadlock/), so a site can only
// be published at a host's root; a base_url with a path makes every
// canonical link, og:url, sitemap entry and robots.txt's Sitemap line name
// an address the site does not serve there, and -publish accepted it.
func TestABaseURLWithAPathIsRefused(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, File), []byte("base_url = \"https://errors.quiverdb.dev/docs\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(os.DirFS(dir), func(string) string { return "" }); err == nil || !strings.Contains(err.Error(), "base_url") {
		t.Errorf("Load() error = %v, want base_url with a path refused", err)
	}
}

// TestNotTOMLNamesItsLine: toml counts the line of a string left open at a
// CRLF line end (Git for Windows' checkout) as the one above it, and of a
// table's name left open as the one below. A bad value in site.toml is
// named at its line too, as a misspelt setting is.
func TestNotTOMLNamesItsLine(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"a string not closed", "language = \"en\"\npublisher = \"x\ncontact = \"\"\n", "site.toml:2: not valid TOML: strings cannot contain newlines"},
		{"a value without quotes", "language = en\n", "site.toml:1: not valid TOML: expected value but found \"en\" instead: write text in double quotes"},
		{"a table name not closed", "language = \"en\"\n[extra\ncontact = \"\"\n", "site.toml:2: not valid TOML: expected '.' or ']' to end table name"},
		{"a setting misspelt", "language = \"en\"\n\npublsher = \"x\"\n", `site.toml:3: unknown setting "publsher"`},
		{"a base URL with a path", "language = \"en\"\n# Where it is.\nbase_url = \"https://example.org/blog\"\n", `site.toml:3: base_url "https://example.org/blog" must be the site's root`},
		{"two bad values", "contact = \"me\"\nlanguage = \"en\"\nwallet_address = \"0x1\"\n", "site.toml:1: contact \"me\" must be a bare e-mail address such as name@example.org\nsite.toml:3: wallet_address"},
	} {
		for _, nl := range []string{"\n", "\r\n"} {
			fsys := fstest.MapFS{File: {Data: []byte(strings.ReplaceAll(tc.src, "\n", nl))}}
			if _, err := Load(fsys, func(string) string { return "" }); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("%s, lines ending %q: Load() error = %v, want %s", tc.name, nl, err, tc.want)
			}
		}
	}
}

// TestAWalletsCapitalsAreItsChecksum takes EIP-55's own examples
// (eips.ethereum.org/EIPS/eip-55) and refuses each with one letter's case
// changed, as a mistyped address would be.
func TestAWalletsCapitalsAreItsChecksum(t *testing.T) {
	for _, addr := range []string{
		"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
		"0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
		"0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
		"0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
		"0x52908400098527886E0F7030069857D2E4169EE7", // all capitals: no checksum to hold
		"0xde709f2102306220921060314715629080e2fb77", // all lower case, likewise
	} {
		if !Checksummed(addr) {
			t.Errorf("%s: refused, want it taken", addr)
		}
		i := strings.IndexAny(addr[2:], "abcdefABCDEF") + 2
		typo := addr[:i] + strings.Map(func(r rune) rune { return r ^ 0x20 }, addr[i:i+1]) + addr[i+1:]
		if strings.ToLower(typo) != typo && strings.ToUpper(typo[2:]) != typo[2:] && Checksummed(typo) {
			t.Errorf("%s: taken, want its capitals refused", typo)
		}
		_, err := Load(fstest.MapFS{File: {Data: []byte("wallet_address = \"" + typo + "\"\n")}}, func(string) string { return "" })
		if mixed := strings.ToLower(typo[2:]) != typo[2:] && strings.ToUpper(typo[2:]) != typo[2:]; mixed != (err != nil && strings.Contains(err.Error(), "EIP-55")) {
			t.Errorf("wallet_address = %q: %v", typo, err)
		}
	}
}

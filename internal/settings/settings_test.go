package settings

import (
	"strings"
	"testing"
)

func TestPlaceholders(t *testing.T) {
	real := Settings{
		BaseURL:    "https://errors.lilulab.net",
		Contact:    "lilu@ability.ai",
		Storefront: "https://lilulab.gumroad.com/l/guide",
		Wallet:     "0x52908400098527886E0F7030069857D2E4169EE7",
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
		{"contact at example.com", func(s *Settings) { s.Contact = "me@example.com" }, "contact"},
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
	if err := s.validate(); err == nil || !strings.Contains(err.Error(), "storefront_url") {
		t.Errorf("validate() = %v, want a storefront_url error", err)
	}
}

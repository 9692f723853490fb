// Package settings loads the site's settings from site.toml, with
// environment variables taking precedence, and says which are missing.
package settings

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"net/mail"
	"net/url"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
	"golang.org/x/crypto/sha3"

	"errref/internal/frontmatter"
	"errref/internal/urlcheck"
)

// File is the settings file, at the top of the site folder.
const File = "site.toml"

// Settings are the values every page shares. An empty string is unset.
type Settings struct {
	BaseURL    string `toml:"base_url"`       // https://example.org, no trailing slash
	Language   string `toml:"language"`       // the pages' lang
	Publisher  string `toml:"publisher"`      // who publishes the pages
	Contact    string `toml:"contact"`        // e-mail address for reports of errors
	Storefront string `toml:"storefront_url"` // the guide's storefront listing
	Wallet     string `toml:"wallet_address"` // the USDC on Base address of the payment page
	// PaymentContact is where a buyer who paid in USDC e-mails the hash:
	// not Contact, as a payment is other mail than an error report.
	PaymentContact string `toml:"payment_contact"`
	Endpoint       string `toml:"endpoint"` // where measure.js posts: /api/event alone, which site.toml may name
	Guide          string `toml:"guide"`    // the product <setting:guide> names when a page's front matter names none
	// Title and Description are the index of errors' without content/index.md.
	Title       string `toml:"title"`
	Description string `toml:"description"`
}

// WalletRE is an address on Base as wallet_address takes it: 0x and 40 hex digits.
var WalletRE = regexp.MustCompile(`^0x[0-9a-fA-F]{40}$`)

// Checksummed reports whether an address in mixed case has EIP-55's capitals: a
// letter is upper case where the lower-case digits' Keccak-256 has a nibble of
// 8 or more; one case alone has none.
func Checksummed(addr string) bool {
	digits := addr[2:]
	if strings.ToLower(digits) == digits || strings.ToUpper(digits) == digits {
		return true
	}
	h := sha3.NewLegacyKeccak256()
	h.Write([]byte(strings.ToLower(digits)))
	sum := h.Sum(nil)
	for i, c := range digits {
		nibble := sum[i/2] >> (4 * (1 - i%2)) & 0xf
		if 'a' <= c && c <= 'f' && nibble >= 8 || 'A' <= c && c <= 'F' && nibble < 8 {
			return false
		}
	}
	return true
}

// Load reads site.toml and the environment; Netlify's URL stands in for an unset base_url.
func Load(site fs.FS, getenv func(string) string) (Settings, error) {
	def := Settings{Language: "en", Endpoint: "/api/event", Title: "Error reference", Description: "Errors explained from the source of the libraries that raise them."}
	s := def
	src, err := fs.ReadFile(site, File)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return s, fmt.Errorf("%s: %w", File, err)
	}
	if err := frontmatter.NotUTF8(File, src); err != nil {
		return s, err
	}
	src = bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n")) // as front matter: a string over lines keeps its line ends
	md, err := toml.Decode(string(src), &s)
	if err != nil {
		if perr, ok := errors.AsType[toml.ParseError](err); ok { // toml's own Line is one off at a CRLF: the line of the byte it stopped at
			return s, fmt.Errorf("%s:%d: not valid TOML: %s", File, bytes.Count(src[:min(perr.Position.Start, len(src))], []byte("\n"))+1, frontmatter.Hint(perr))
		}
		return s, fmt.Errorf("%s: %w", File, err)
	}
	// As the SITE_ variables are: "  " is unset, no publisher, nor a title of "".
	v, d := reflect.ValueOf(&s).Elem(), reflect.ValueOf(def)
	for i := range v.NumField() {
		v.Field(i).SetString(cmp.Or(strings.TrimSpace(v.Field(i).String()), d.Field(i).String()))
	}
	if und := md.Undecoded(); len(und) > 0 {
		return s, fmt.Errorf("%s:%d: unknown setting %q: the settings are base_url, language, publisher, contact, storefront_url, wallet_address, payment_contact, endpoint, title, description, guide", File, frontmatter.KeyLine(src, und[0].String()), und[0].String())
	}
	from := map[string]string{} // a setting's name -> the variable that set it, for errors to name
	for _, e := range []struct {
		env, name string
		p         *string
	}{{"SITE_BASE_URL", "base_url", &s.BaseURL}, {"SITE_CONTACT", "contact", &s.Contact},
		{"SITE_STOREFRONT_URL", "storefront_url", &s.Storefront}, {"SITE_WALLET_ADDRESS", "wallet_address", &s.Wallet},
		{"SITE_PAYMENT_CONTACT", "payment_contact", &s.PaymentContact}, {"SITE_GUIDE", "guide", &s.Guide}} {
		if v := strings.TrimSpace(getenv(e.env)); v != "" {
			*e.p, from[e.name] = v, e.env
		}
	}
	if s.BaseURL == "" && getenv("URL") != "" {
		s.BaseURL, from["base_url"] = getenv("URL"), "URL"
	}
	s.BaseURL = strings.TrimRight(s.BaseURL, "/")
	return s, s.validate(from, src)
}

// validate names each bad value where it was set: its line of site.toml (src),
// or from's variable.
func (s Settings) validate(from map[string]string, src []byte) error {
	var errs []error
	bad := func(name, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s: %s %q "+format, append([]any{cmp.Or(from[name], fmt.Sprintf("%s:%d", File, frontmatter.KeyLine(src, name))), name}, args...)...))
	}
	for _, u := range []struct{ name, value string }{{"base_url", s.BaseURL}, {"storefront_url", s.Storefront}} {
		if u.value != "" && urlcheck.Normalize(u.value) != u.value {
			bad(u.name, "holds a space or a control character", u.value)
		}
	}
	u, err := url.Parse(s.BaseURL)
	if s.BaseURL != "" && (err != nil || u.Scheme != "https" && u.Scheme != "http" || u.Host == "" ||
		u.Path != "" || u.RawQuery != "" || u.Fragment != "") {
		// Pages link their files from the root (/style.css): a site under /docs/ would link what it does not serve.
		bad("base_url", "must be the site's root, an absolute http(s) URL with no path, such as https://example.org",
			s.BaseURL)
	}
	for _, m := range []struct{ name, value string }{{"contact", s.Contact}, {"payment_contact", s.PaymentContact}} {
		// ? # % would be a mailto: link's query, fragment or escape.
		if a, err := mail.ParseAddress(m.value); m.value != "" && (err != nil || a.Address != m.value || strings.ContainsAny(m.value, "?#%")) {
			bad(m.name, "must be a bare e-mail address such as name@example.org", m.value)
		}
	}
	if u, err := url.Parse(s.Storefront); s.Storefront != "" && (err != nil || u.Scheme != "https" || u.Host == "") {
		bad("storefront_url", "must be an https URL", s.Storefront)
	}
	if s.Wallet != "" && !WalletRE.MatchString(s.Wallet) {
		bad("wallet_address", "must be 0x and 40 hex digits", s.Wallet)
	} else if s.Wallet != "" && !Checksummed(s.Wallet) {
		bad("wallet_address", "has capitals that are not its EIP-55 checksum's: a typo would send buyers' payments to an address nobody holds; copy it from the wallet", s.Wallet)
	}
	if s.Endpoint != "/api/event" {
		bad("endpoint", "must be /api/event, where the preview and netlify.toml's redirect take the counter's events (or be left out)", s.Endpoint)
	}
	if s.Language == "" || strings.ContainsAny(s.Language, "\"<> ") {
		bad("language", "must be a language tag such as en", s.Language)
	}
	return errors.Join(errs...)
}

// Missing lists the settings a published site needs and lacks.
func (s Settings) Missing() []string {
	var m []string
	for _, v := range [][2]string{{s.BaseURL, "base_url (or SITE_BASE_URL; Netlify sets URL)"}, {s.Publisher, "publisher"}, {s.Contact, "contact (or SITE_CONTACT)"},
		{s.Storefront, "storefront_url (or SITE_STOREFRONT_URL)"}, {s.Wallet, "wallet_address (or SITE_WALLET_ADDRESS)"},
		{s.PaymentContact, "payment_contact (or SITE_PAYMENT_CONTACT)"}} {
		if v[0] == "" {
			m = append(m, v[1])
		}
	}
	return m
}

// Placeholders lists, with what to fix, the evident stand-ins: a host RFC 2606
// reserves, a wallet of one digit repeated, or a base URL over plain http (fine
// for a local try, not for publishing).
func (s Settings) Placeholders() []string {
	var p []string
	for _, u := range []struct{ name, value string }{{"base_url", s.BaseURL}, {"storefront_url", s.Storefront}} {
		if parsed, err := url.Parse(u.value); u.value != "" && err == nil && reservedHost(parsed.Hostname()) {
			p = append(p, fmt.Sprintf("%s %q is on a host reserved for examples: set the real address", u.name, u.value))
		}
	}
	if strings.HasPrefix(s.BaseURL, "http://") { // canonical links, og:url and the sitemap would name it
		p = append(p, fmt.Sprintf("base_url %q is plain http: set the https address the site is served at", s.BaseURL))
	}
	for _, m := range []struct{ name, value string }{{"contact", s.Contact}, {"payment_contact", s.PaymentContact}} {
		if _, domain, ok := strings.Cut(m.value, "@"); ok && reservedHost(domain) {
			p = append(p, fmt.Sprintf("%s %q is at a domain reserved for examples: set a real address", m.name, m.value))
		}
	}
	if WalletRE.MatchString(s.Wallet) && strings.EqualFold(s.Wallet[2:], strings.Repeat(s.Wallet[2:3], 40)) {
		p = append(p, fmt.Sprintf("wallet_address %q repeats one digit: set the address the payments go to", s.Wallet))
	}
	return p
}

// reservedHost reports whether RFC 2606 reserves host for documentation and tests.
func reservedHost(host string) bool {
	labels := strings.Split(strings.TrimSuffix(strings.ToLower(host), "."), ".")
	last := len(labels) - 1
	// example.com, store.example.org, example.co.uk: evidently stand-ins.
	return labels[0] == "example" || last >= 1 && labels[last-1] == "example" ||
		slices.Contains([]string{"example", "invalid", "test", "localhost"}, labels[last])
}

package casefold

import "testing"

func TestKey(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{"static", "Static", true},
		{"pay/index.html", "PAY/Index.HTML", true},
		{"k", "\u212a", true}, // the Kelvin sign folds with k and K
		{"σ", "Σ", true},
		{"ς", "σ", true}, // final sigma is in sigma's orbit
		{"guide", "guides", false},
		{"a", "b", false},
	} {
		if got := Key(tc.a) == Key(tc.b); got != tc.same {
			t.Errorf("Key(%q) == Key(%q) is %v, want %v", tc.a, tc.b, got, tc.same)
		}
	}
}

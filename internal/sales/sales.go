// Package sales reads the storefront's exports of sales, recognised by their
// header, into what the store keeps of each (see Record). A buyer's details,
// the purchase ID and a sender's wallet are read past and never returned.
package sales

import (
	"bufio"
	"crypto/sha256"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"errref/internal/settings"
)

// Record is one sale as the store keeps it.
type Record struct {
	Key     string // SHA-256 of the channel and the purchase ID or transaction hash
	Day     string // UTC, YYYY-MM-DD
	Channel string // event.Gumroad or event.Site
	Product string
	Cents   int64 // after a partial refund
	Kept    bool  // neither fully refunded nor lost in a dispute
	Won     bool  // a dispute won: the one way a sale not kept comes back (see store.KeepSales)
}

// Options are what an export does not say itself.
type Options struct {
	Wallet  string // the address USDC is paid to on Base (site.toml's wallet_address)
	Product string // what a transfer paid for: a chain transfer names none
}

// Read recognises an export by its header and returns its kind, and each, which
// hands keep its sales one at a time as it reads them from r, never holding the
// file whole. A row it cannot read, or keep's error, ends each with an error at
// its line. Any other file is refused, naming its header.
func Read(name string, r io.Reader, o Options) (kind string, each func(keep func(Record) error) error, err error) {
	if o.Wallet != "" && !settings.WalletRE.MatchString(o.Wallet) {
		return "", nil, fmt.Errorf("the wallet %q is not an address: want 0x and 40 hex digits, the address the USDC is paid to", o.Wallet)
	}
	br := bufio.NewReader(r)
	if bom, _ := br.Peek(3); string(bom) == "\ufeff" { // a spreadsheet's byte-order mark
		br.Discard(3)
	}
	cr := csv.NewReader(br) // FieldsPerRecord 0: every row as wide as the header
	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return "", nil, fmt.Errorf("%s: empty: want %s", name, expected())
	}
	if err != nil {
		return "", nil, fmt.Errorf("%s: not a CSV export (%v): want %s", name, err, expected())
	}
	cols := map[string]int{} // each column's position; set backwards, so the first of a repeated name wins
	for i, h := range slices.Backward(header) {
		cols[strings.TrimSpace(h)] = i
	}
	has := func(want []string) bool {
		return !slices.ContainsFunc(want, func(w string) bool { _, ok := cols[w]; return !ok })
	}
	cr.ReuseRecord = true
	switch i := slices.IndexFunc(explorers, func(x explorer) bool { return has(x.columns()) }); {
	case has(gumroadColumns):
		return "Gumroad sales export", func(keep func(Record) error) error { return readGumroad(name, cr, cols, keep) }, nil
	case i >= 0:
		return explorers[i].reader(name, cr, cols, o)
	default:
		found := strings.Join(header, ",")
		if len(found) > 200 {
			found = found[:200] + "…"
		}
		return "", nil, fmt.Errorf("%s:1: the header %q is neither export: want %s", name, found, expected())
	}
}

func expected() string {
	return fmt.Sprintf("Gumroad's sales export (columns %s, ...), Blockscout's token transfers (columns %s, ...) or Basescan's (columns %s, ..., the first also named %s)",
		strings.Join(gumroadColumns, ","), strings.Join(explorers[0].columns(), ","), strings.Join(explorers[1].columns(), ","), explorers[2].tx)
}

// key is the import key of a sale: the hash of its channel and ID, never stored itself.
func key(channel, id string) string {
	return fmt.Sprintf("%x", sha256.Sum256([]byte(channel+"\n"+id)))
}

// fixed reads a decimal amount exactly as a whole number of 10^-places: 19.5 is
// 1950 at 2 places. A sign, an exponent, a separator, more decimals than places
// or a value over an int64 is refused (ParseUint takes digits alone).
func fixed(s string, places int) (int64, bool) {
	whole, frac, dot := strings.Cut(s, ".")
	if whole == "" || dot && frac == "" || len(frac) > places {
		return 0, false
	}
	n, err := strconv.ParseUint(whole+frac+strings.Repeat("0", places-len(frac)), 10, 63)
	return int64(n), err == nil
}

// rows hands f each row after the header, as its cell of each column (trimmed;
// "" for a column the header lacks), and puts f's error at the row's line. A row
// wider or narrower than the header, or not UTF-8, is refused.
func rows(name string, cr *csv.Reader, cols map[string]int, f func(cell func(column string) string, line int) error) error {
	for {
		row, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil && !errors.Is(err, csv.ErrFieldCount) {
			return fmt.Errorf("%s: %w", name, err)
		}
		line, _ := cr.FieldPos(0)
		if err != nil {
			return fmt.Errorf("%s:%d: %d cells where the header has %d: the row is damaged; download the export again", name, line, len(row), cr.FieldsPerRecord)
		}
		if slices.ContainsFunc(row, func(c string) bool { return !utf8.ValidString(c) }) { // else a product kept under another name, off its page's row
			return fmt.Errorf("%s:%d: not UTF-8: saved by a spreadsheet in another encoding (Excel's CSV (Comma delimited) on Windows)? Download the export again, or save it as CSV UTF-8", name, line)
		}
		cell := func(column string) string {
			if i, ok := cols[column]; ok {
				return strings.TrimSpace(row[i])
			}
			return ""
		}
		if err := f(cell, line); err != nil {
			return fmt.Errorf("%s:%d: %w", name, line, err)
		}
	}
}

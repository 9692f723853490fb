// Package sales reads the storefront's exports of sales, recognised by
// their header, into what the store keeps of each (see Record). A buyer's
// name, email, address, country, license key, the purchase ID and a
// sender's wallet address are read past and never returned.
package sales

import (
	"bytes"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// Record is one sale as the store keeps it.
type Record struct {
	Key     string // SHA-256 of the channel and the purchase ID or transaction hash
	Day     string // UTC, YYYY-MM-DD
	Channel string // gumroad or site
	Product string
	Cents   int64 // after a partial refund
	Kept    bool  // neither fully refunded nor lost in a dispute
}

// Options are what an export does not say itself.
type Options struct {
	// Wallet is the address USDC is paid to on Base (site.toml's
	// wallet_address): only transfers to it count.
	Wallet string
	// Product names what a transfer paid for: a chain transfer names none.
	Product string
}

// Read recognises an export by its header and returns its sales; any
// other file is refused, naming the header found and those expected.
func Read(name string, r io.Reader, o Options) (kind string, recs []Record, err error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return "", nil, err
	}
	b = bytes.TrimPrefix(b, []byte("\ufeff")) // a spreadsheet's byte-order mark
	cr := csv.NewReader(bytes.NewReader(b))
	cr.FieldsPerRecord = -1
	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return "", nil, fmt.Errorf("%s: empty: want %s", name, expected())
	}
	if err != nil {
		first, _, _ := bytes.Cut(b, []byte("\n"))
		header = []string{string(first)}
	}
	cols := map[string]int{} // each column's position; set backwards, so the first of a repeated name wins
	for i, h := range slices.Backward(header) {
		cols[strings.TrimSpace(h)] = i
	}
	has := func(want []string) bool {
		return !slices.ContainsFunc(want, func(w string) bool { _, ok := cols[w]; return !ok })
	}
	switch {
	case has(gumroadColumns):
		recs, err = readGumroad(name, cr, cols)
		return "Gumroad sales export", recs, err
	case has(explorerColumns):
		recs, err = readExplorer(name, cr, cols, o)
		return "block explorer token transfers", recs, err
	}
	found := strings.Join(header, ",")
	if len(found) > 200 {
		found = found[:200] + "…"
	}
	return "", nil, fmt.Errorf("%s:1: the header %q is neither export: want %s", name, found, expected())
}

func expected() string {
	return fmt.Sprintf("Gumroad's sales export (columns %s, ...) or a Base explorer's token transfers export (columns %s, ...)",
		strings.Join(gumroadColumns, ","), strings.Join(explorerColumns, ","))
}

// key is the import key of a sale: the hash of its channel and ID, so
// the ID itself is never stored.
func key(channel, id string) string {
	sum := sha256.Sum256([]byte(channel + "\n" + id))
	return hex.EncodeToString(sum[:])
}

// each hands f each row after the header, as its cell of each column
// (trimmed; "" past the row's end or for a column the header lacks), and
// puts an error f returns at the row's line.
func each(name string, cr *csv.Reader, cols map[string]int, f func(cell func(column string) string, line int) error) error {
	for {
		row, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		line, _ := cr.FieldPos(0)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		cell := func(column string) string {
			if i, ok := cols[column]; ok && i < len(row) {
				return strings.TrimSpace(row[i])
			}
			return ""
		}
		if err := f(cell, line); err != nil {
			return fmt.Errorf("%s:%d: %w", name, line, err)
		}
	}
}

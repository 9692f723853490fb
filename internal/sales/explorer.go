// The CSV exports of an address's token transfers from Base's block explorers,
// Blockscout's and Basescan's (Etherscan's format), each its own way: see
// testdata/README.md for the code that writes them, at which commits.

package sales

import (
	"encoding/csv"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"errref/internal/event"
)

// USDC is the address of Circle's USDC contract on Base: only its transfers count.
const USDC = "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913"

// ErrNoWallet is the error of a transfers export read without a wallet.
var ErrNoWallet = errors.New("a token transfers export needs the wallet they were paid to: set wallet_address in site.toml (or SITE_WALLET_ADDRESS), or give -wallet")

// An explorer is one explorer's export: the columns of the transaction's hash,
// the receiver and the token's contract, the others it is known by, and transfer,
// which reads a transfer's amount in USDC's smallest unit (10^-6) and its time.
type explorer struct {
	kind          string
	tx, to, token string
	more          []string
	transfer      func(cell func(string) string) (units int64, at time.Time, err error)
}

var explorers = []explorer{
	{"Blockscout token transfers", "TxHash", "ToAddress", "TokenContractAddress", []string{"UnixTimestamp", "TokenDecimals", "TokensTransferred"}, blockscout},
	{"Basescan token transfers", "Txhash", "To", "ContractAddress", []string{"UnixTimestamp", "TokenValue"}, basescan},
	{"Basescan token transfers", "Transaction Hash", "To", "ContractAddress", []string{"UnixTimestamp", "TokenValue"}, basescan},
}

func (x explorer) columns() []string { return append([]string{x.tx, x.to, x.token}, x.more...) }

// reader returns x's kind and the reader of the USDC paid to the wallet, a sale
// of o's product a transaction, summed to the end: memory grows with the sales,
// not the rows.
func (x explorer) reader(name string, cr *csv.Reader, cols map[string]int, o Options) (string, func(keep func(Record) error) error, error) {
	if o.Wallet == "" {
		return x.kind, nil, fmt.Errorf("%s: %w", name, ErrNoWallet)
	}
	if o.Product == "" {
		return x.kind, nil, fmt.Errorf("%s: a transfer names no product: give -product with the guide the wallet sells", name)
	}
	return x.kind, func(keep func(Record) error) error {
		var txs []string // in the export's order
		units, day := map[string]int64{}, map[string]string{}
		transfers, paid := 0, 0
		err := rows(name, cr, cols, func(cell func(string) string, _ int) error {
			if transfers++; !strings.EqualFold(cell(x.token), USDC) || !strings.EqualFold(cell(x.to), o.Wallet) {
				return nil
			}
			paid++
			// Blockscout's Status: ok, or error for a failed transaction, which
			// moved nothing.
			switch _, status := cols["Status"]; {
			case cell("Status") == "error":
				return nil
			case status && cell("Status") != "ok":
				return fmt.Errorf("Status %q: want ok or error, as Blockscout writes it", cell("Status"))
			}
			tx := strings.ToLower(cell(x.tx))
			if tx == "" {
				return fmt.Errorf("no %s", x.tx)
			}
			n, at, err := x.transfer(cell)
			if err != nil {
				return err
			}
			if _, ok := units[tx]; !ok {
				txs = append(txs, tx)
				day[tx] = at.UTC().Format(time.DateOnly)
			}
			units[tx] += n
			return nil
		})
		if err != nil {
			return err
		}
		// A mistyped wallet would hide every sale behind "0 sales".
		if paid == 0 && transfers > 0 {
			return fmt.Errorf("%s: none of its %d transfers is of USDC to the wallet %s: check -wallet (or wallet_address) against the address whose transfers these are", name, transfers, o.Wallet)
		}
		for _, tx := range txs {
			cents := (units[tx] + 5_000) / 10_000 // to the nearest cent, 10^4 units
			// 0 or dust, which anyone may send for the gas (address poisoning), is no buyer's: not kept, and so
			// no longer a sale in the report of 5413124 (which counts every kept row), which kept it as one.
			if err := keep(Record{Key: key(event.Site, tx), Day: day[tx], Channel: event.Site, Product: o.Product, Cents: cents, Kept: cents > 0}); err != nil {
				return err
			}
		}
		return nil
	}, nil
}

// blockscout reads a transfer of Blockscout's export: the token's smallest unit,
// and the block's time as Elixir writes a DateTime.
func blockscout(cell func(string) string) (int64, time.Time, error) {
	if d := cell("TokenDecimals"); d != "6" {
		return 0, time.Time{}, fmt.Errorf("TokenDecimals %q: USDC has 6", d)
	}
	units, ok := fixed(cell("TokensTransferred"), 0)
	if !ok {
		return 0, time.Time{}, fmt.Errorf("TokensTransferred %q: want a whole number of the token's smallest unit", cell("TokensTransferred"))
	}
	at, err := time.Parse("2006-01-02 15:04:05Z07:00", cell("UnixTimestamp")) // fractions of a second are read too
	if err != nil {
		return 0, time.Time{}, fmt.Errorf("UnixTimestamp %q: want a block time such as 2026-12-03 09:15:00.000000Z", cell("UnixTimestamp"))
	}
	return units, at, nil
}

// tokensRE is an amount of tokens as Etherscan writes it: 19, 1,234.5.
var tokensRE = regexp.MustCompile(`^[0-9]{1,3}(,[0-9]{3})*(\.[0-9]+)?$`)

// basescan reads a transfer of Basescan's export: tokens, and seconds.
func basescan(cell func(string) string) (int64, time.Time, error) {
	v := cell("TokenValue")
	units, ok := fixed(strings.ReplaceAll(v, ",", ""), 6)
	if !ok || !tokensRE.MatchString(v) {
		return 0, time.Time{}, fmt.Errorf("TokenValue %q: want USDC as the explorer writes it, such as 19 or 1,234.5, at most 6 decimals", v)
	}
	sec, ok := fixed(cell("UnixTimestamp"), 0)
	if !ok {
		return 0, time.Time{}, fmt.Errorf("UnixTimestamp %q: want seconds since 1970", cell("UnixTimestamp"))
	}
	return units, time.Unix(sec, 0), nil
}

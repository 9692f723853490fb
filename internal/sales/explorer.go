// A block explorer's CSV export of an address's token transfers, as
// Blockscout (base.blockscout.com, Base's open-source explorer) writes it:
// Explorer.Chain.CsvExport.Address.TokenTransfers in blockscout/blockscout
// (apps/explorer/lib/explorer/chain/csv_export/address/token_transfers.ex
// at 1d6172f). TokensTransferred is in the token's smallest unit.

package sales

import (
	"encoding/csv"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"time"
)

// USDC is the address of Circle's USDC contract on Base: only its
// transfers count.
const USDC = "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913"

// ErrNoWallet is the error of a transfers export read without a wallet.
var ErrNoWallet = errors.New("a token transfers export needs the wallet they were paid to: set wallet_address in site.toml (or SITE_WALLET_ADDRESS), or give -wallet")

var explorerColumns = []string{"TxHash", "UnixTimestamp", "ToAddress", "TokenContractAddress", "TokenDecimals", "TokensTransferred"}

func readExplorer(name string, cr *csv.Reader, cols map[string]int, o Options) ([]Record, error) {
	wallet := strings.ToLower(strings.TrimSpace(o.Wallet))
	if wallet == "" {
		return nil, fmt.Errorf("%s: %w", name, ErrNoWallet)
	}
	if o.Product == "" {
		return nil, fmt.Errorf("%s: a transfer names no product: give -product with the guide the wallet sells", name)
	}
	byTx := map[string]int{} // a transaction's sale, when it pays twice
	var out []Record
	err := each(name, cr, cols, func(cell func(string) string, _ int) error {
		if !strings.EqualFold(cell("TokenContractAddress"), USDC) || strings.ToLower(cell("ToAddress")) != wallet {
			return nil
		}
		if st := cell("Status"); st != "" && st != "ok" {
			return nil // a failed transaction moved nothing
		}
		c, day, err := transfer(cell)
		if err != nil {
			return err
		}
		tx := strings.ToLower(cell("TxHash"))
		if tx == "" {
			return errors.New("no TxHash")
		}
		if i, ok := byTx[tx]; ok {
			out[i].Cents += c
			return nil
		}
		byTx[tx] = len(out)
		out = append(out, Record{Key: key("site", tx), Day: day, Channel: "site", Product: o.Product, Cents: c, Kept: true})
		return nil
	})
	return out, err
}

// transfer reads a USDC transfer's amount in cents, to the nearest, and
// its UTC day.
func transfer(cell func(string) string) (int64, string, error) {
	if d := cell("TokenDecimals"); d != "6" {
		return 0, "", fmt.Errorf("TokenDecimals %q: USDC has 6", d)
	}
	raw, ok := new(big.Int).SetString(cell("TokensTransferred"), 10)
	if !ok || raw.Sign() < 0 {
		return 0, "", fmt.Errorf("TokensTransferred %q: want a whole number of the token's smallest unit", cell("TokensTransferred"))
	}
	c := new(big.Int).Add(raw, big.NewInt(5_000))
	c.Quo(c, big.NewInt(10_000)) // 10^6 units a dollar, 100 cents
	if !c.IsInt64() {
		return 0, "", fmt.Errorf("TokensTransferred %s: too large", raw)
	}
	sec, err := strconv.ParseInt(cell("UnixTimestamp"), 10, 64)
	if err != nil {
		return 0, "", fmt.Errorf("UnixTimestamp %q: want seconds since 1970", cell("UnixTimestamp"))
	}
	return c.Int64(), time.Unix(sec, 0).UTC().Format(time.DateOnly), nil
}

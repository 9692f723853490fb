// Gumroad's sales export: the CSV the dashboard writes, its columns those of
// Exports::PurchaseExportService::PURCHASE_FIELDS in antiwork/gumroad
// (app/services/exports/purchase_export_service.rb at 02e2df6), then a custom
// field a column, and a last row whose first cell is "Totals"; every row as
// wide as the header. Its amounts are Ruby Floats, cents over 100.0 rounded to
// two places (convert_cents_to_dollars in app/modules/purchase/accounting.rb,
// read at 8c16285).

package sales

import (
	"encoding/csv"
	"fmt"
	"time"

	"errref/internal/event"
)

// gumroadColumns are the columns a sale is read from; the buyer's name, emails,
// address, country, license key and the rest are not read.
var gumroadColumns = []string{"Purchase ID", "Item Name", "Purchase Time (UTC timezone)", "Sale Price ($)",
	"Partial Refund ($)", "Fully Refunded?", "Disputed?", "Dispute Won?", "Pre-order authorization?", "Free trial purchase?"}

func readGumroad(name string, cr *csv.Reader, cols map[string]int, keep func(Record) error) error {
	totals := 0 // the Totals row's line
	err := rows(name, cr, cols, func(cell func(string) string, line int) error {
		if totals > 0 {
			return fmt.Errorf("a row after the Totals row of line %d: the Totals row is the export's last", totals)
		}
		if cell("Purchase ID") == "Totals" {
			totals = line
			return nil
		}
		return gumroadSale(cell, keep)
	})
	if err == nil && totals == 0 {
		err = fmt.Errorf("%s: no Totals row at the end: the export was cut short? Download it again", name)
	}
	return err
}

func gumroadSale(cell func(string) string, keep func(Record) error) error {
	for _, c := range []string{"Purchase ID", "Item Name"} {
		if cell(c) == "" {
			return fmt.Errorf("no %s", c)
		}
	}
	at, err := gumroadTime(cell("Purchase Time (UTC timezone)"))
	if err != nil {
		return err
	}
	price, err := cents("Sale Price ($)", cell("Sale Price ($)"))
	if err != nil {
		return err
	}
	refund, err := cents("Partial Refund ($)", cell("Partial Refund ($)"))
	if err != nil {
		return err
	}
	for _, c := range []string{"Fully Refunded?", "Disputed?", "Dispute Won?", "Pre-order authorization?", "Free trial purchase?"} {
		if v := cell(c); v != "0" && v != "1" { // as the export writes each flag: never empty
			return fmt.Errorf("%s is %q: want 0 or 1", c, v)
		}
	}
	// A pre-order's authorization and a free trial's start charged nothing: the
	// charge is a row of its own (Gumroad's Charge::Chargeable#charged_purchases
	// leaves them out too), and the authorization leaves later exports.
	kept := cell("Fully Refunded?") != "1" && !(cell("Disputed?") == "1" && cell("Dispute Won?") != "1") &&
		cell("Pre-order authorization?") != "1" && cell("Free trial purchase?") != "1"
	return keep(Record{Key: key(event.Gumroad, cell("Purchase ID")), Day: at.UTC().Format(time.DateOnly),
		Channel: event.Gumroad, Product: cell("Item Name"), Cents: price - refund, Kept: kept,
		Won: cell("Disputed?") == "1" && cell("Dispute Won?") == "1"})
}

// gumroadTime reads the purchase's time as Ruby's Time#to_s writes it
// ("2026-03-01 14:05:09 UTC" or "... +0000"). A zone named otherwise (PST) is
// refused: Go would read an abbreviation it does not know as UTC, shifting the day.
func gumroadTime(s string) (time.Time, error) {
	for _, layout := range []string{"2006-01-02 15:04:05 -0700", "2006-01-02 15:04:05 UTC"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("Purchase Time (UTC timezone) %q: want a time such as 2026-03-01 14:05:09 UTC", s)
}

// cents reads exactly an amount in dollars as Ruby's Float#to_s writes it: 19.0, 4.5, 19.99.
func cents(column, s string) (int64, error) {
	c, ok := fixed(s, 2)
	if !ok {
		return 0, fmt.Errorf("%s %q: want dollars with at most two decimals, such as 19.0", column, s)
	}
	return c, nil
}

// Gumroad's sales export: the CSV the dashboard writes, its columns those
// of Exports::PurchaseExportService::PURCHASE_FIELDS in antiwork/gumroad
// (app/services/exports/purchase_export_service.rb at 02e2df6), then a
// custom field a column, and a last row whose first cell is "Totals".

package sales

import (
	"cmp"
	"encoding/csv"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// gumroadColumns are the columns a sale is read from: the rest (the
// buyer's name, emails, address, country, license key, ...) are not read.
var gumroadColumns = []string{"Purchase ID", "Item Name", "Purchase Time (UTC timezone)", "Sale Price ($)",
	"Partial Refund ($)", "Fully Refunded?", "Disputed?", "Dispute Won?"}

func readGumroad(name string, cr *csv.Reader, cols map[string]int) ([]Record, error) {
	var out []Record
	totals := 0 // the Totals row's line
	err := each(name, cr, cols, func(cell func(string) string, line int) error {
		if totals > 0 {
			return fmt.Errorf("a row after the Totals row of line %d: the Totals row is the export's last", totals)
		}
		if cell("Purchase ID") == "Totals" {
			totals = line
			return nil
		}
		rec, err := gumroadSale(cell)
		out = append(out, rec)
		return err
	})
	if err == nil && totals == 0 {
		err = fmt.Errorf("%s: no Totals row at the end: the export was cut short? Download it again", name)
	}
	return out, err
}

func gumroadSale(cell func(string) string) (Record, error) {
	for _, c := range []string{"Purchase ID", "Item Name"} {
		if cell(c) == "" {
			return Record{}, fmt.Errorf("no %s", c)
		}
	}
	at, err1 := gumroadTime(cell("Purchase Time (UTC timezone)"))
	price, err2 := cents("Sale Price ($)", cell("Sale Price ($)"))
	refund, err3 := cents("Partial Refund ($)", cell("Partial Refund ($)"))
	if err := cmp.Or(err1, err2, err3); err != nil {
		return Record{}, err
	}
	for _, c := range []string{"Fully Refunded?", "Disputed?", "Dispute Won?"} {
		if v := cell(c); v != "0" && v != "1" && v != "" {
			return Record{}, fmt.Errorf("%s is %q: want 0 or 1", c, v)
		}
	}
	kept := cell("Fully Refunded?") != "1" && !(cell("Disputed?") == "1" && cell("Dispute Won?") != "1")
	return Record{Key: key("gumroad", cell("Purchase ID")), Day: at.UTC().Format(time.DateOnly), Channel: "gumroad",
		Product: cell("Item Name"), Cents: price - refund, Kept: kept}, nil
}

// gumroadTime reads the purchase's time as Ruby's Time#to_s writes it
// ("2026-03-01 14:05:09 UTC" or "... +0000"). A zone named otherwise
// (PST) is refused: Go would read an abbreviation it does not know as
// UTC, a silent shift of the day.
func gumroadTime(s string) (time.Time, error) {
	for _, layout := range []string{"2006-01-02 15:04:05 -0700", "2006-01-02 15:04:05 UTC", time.RFC3339} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("Purchase Time (UTC timezone) %q: want a time such as 2026-03-01 14:05:09 UTC", s)
}

// cents reads an amount in dollars, such as 19 or 19.5 or 19.00, exactly.
func cents(column, s string) (int64, error) {
	if s == "" {
		return 0, nil
	}
	whole, frac, _ := strings.Cut(s, ".")
	frac += "00" // so 19.5 has 50 cents
	if strings.Trim(frac[2:], "0") != "" {
		return 0, fmt.Errorf("%s %q: more than two decimals", column, s)
	}
	w, err1 := strconv.ParseInt(whole, 10, 64)
	f, err2 := strconv.ParseInt(frac[:2], 10, 64)
	if err1 != nil || err2 != nil || w < 0 || f < 0 {
		return 0, fmt.Errorf("%s %q: want an amount such as 19.00", column, s)
	}
	return w*100 + f, nil
}

// The funnel's last step: the storefront's sales, by channel and product, beside the buy-link clicks.

package report

import (
	"cmp"
	"slices"

	"errref/internal/event"
	"errref/internal/tally"
)

// Sales are the storefront's kept sales (neither fully refunded nor lost in a
// dispute), site-wide: an export carries no page, referrer, campaign or outreach code.
type Sales struct {
	Channels []Channel     `json:"channels"` // gumroad, site, then both
	Products []ProductSale `json:"products"`
}

// Channel is one channel's buy-link clicks, sales and revenue, against the period before.
type Channel struct {
	Channel               string   `json:"channel"` // gumroad, site, or "all"
	BuyLinkClicks         int      `json:"buy_link_clicks"`
	Sales                 int      `json:"sales"`
	RevenueCents          int64    `json:"revenue_cents"`
	PreviousBuyLinkClicks int      `json:"previous_buy_link_clicks"`
	PreviousSales         int      `json:"previous_sales"`
	PreviousRevenueCents  int64    `json:"previous_revenue_cents"`
	SalesPerBuyLinkClick  *float64 `json:"sales_per_buy_link_click,omitempty"` // absent without a buy-link click
}

// ProductSale is one product's sales through one channel in the period.
type ProductSale struct {
	Product      string `json:"product"`
	Channel      string `json:"channel"`
	Sales        int    `json:"sales"`
	RevenueCents int64  `json:"revenue_cents"`
}

// addSales adds the sales of the period and the one before to r.SiteWide and the days.
func (r *Report) addSales(sales []tally.Sale) {
	w := r.SiteWide
	by := map[string]*Channel{}
	all := &Channel{Channel: "all"}
	for _, ch := range event.Checkouts {
		by[ch] = &Channel{Channel: ch, BuyLinkClicks: w.BuyLinkClicks[ch], PreviousBuyLinkClicks: w.PreviousBuyLinkClicks[ch]}
		all.BuyLinkClicks += w.BuyLinkClicks[ch]
		all.PreviousBuyLinkClicks += w.PreviousBuyLinkClicks[ch]
	}
	day := map[string]*Day{}
	for i := range r.Days {
		d := &r.Days[i]
		d.Sales, d.RevenueCents = new(int), new(int64)
		day[d.Day] = d
	}
	products := map[[2]string]*ProductSale{}
	for _, s := range sales {
		c := by[s.Channel]
		if c == nil {
			continue // the table's check allows no other
		}
		if s.Day < r.From || s.Day > r.To {
			if s.Day >= r.Previous.From && s.Day <= r.Previous.To {
				c.PreviousSales += s.N
				c.PreviousRevenueCents += s.Cents
				all.PreviousSales += s.N
				all.PreviousRevenueCents += s.Cents
			}
			continue
		}
		c.Sales += s.N
		c.RevenueCents += s.Cents
		all.Sales += s.N
		all.RevenueCents += s.Cents
		*day[s.Day].Sales += s.N
		*day[s.Day].RevenueCents += s.Cents
		p := at(products, [2]string{s.Product, s.Channel})
		p.Sales += s.N
		p.RevenueCents += s.Cents
	}
	w.Sales = &Sales{Products: []ProductSale{}}
	for _, c := range []*Channel{by[event.Gumroad], by[event.Site], all} {
		c.SalesPerBuyLinkClick = rate(c.Sales, c.BuyLinkClicks)
		w.Sales.Channels = append(w.Sales.Channels, *c)
	}
	for k, p := range products {
		p.Product, p.Channel = k[0], k[1]
		w.Sales.Products = append(w.Sales.Products, *p)
	}
	slices.SortFunc(w.Sales.Products, func(a, b ProductSale) int {
		return cmp.Or(b.Sales-a.Sales, cmp.Compare(a.Product, b.Product), cmp.Compare(a.Channel, b.Channel))
	})
}

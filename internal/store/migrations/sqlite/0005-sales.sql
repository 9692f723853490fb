-- Migration 5: the storefront's sales, counts only. One row a sale, so
-- that an export taken again, or a later one that shows a refund or a
-- lost dispute, changes the sale instead of adding one: key is the
-- SHA-256 of the channel and the purchase ID or transaction hash, never
-- the ID itself. day is the sale's UTC day; cents its amount after a
-- partial refund; kept 0 for a sale fully refunded or lost in a dispute.
-- No name, email, address, country, license key or wallet address.

CREATE TABLE sales (
	key TEXT PRIMARY KEY,
	day TEXT NOT NULL,
	channel TEXT NOT NULL CHECK (channel IN ('gumroad', 'site')),
	product TEXT NOT NULL,
	cents BIGINT NOT NULL,
	kept INTEGER NOT NULL CHECK (kept IN (0, 1))
) WITHOUT ROWID;

CREATE INDEX sales_day ON sales (day);

package store

import _ "modernc.org/sqlite" // the tests open SQLite files, as cmd/report does; the store registers no driver (see openSQLite)

package store

import _ "modernc.org/sqlite" // the tests open SQLite files, as cmd/build and cmd/report do

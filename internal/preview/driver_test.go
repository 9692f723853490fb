package preview

import _ "modernc.org/sqlite" // the preview stores in SQLite, as cmd/build registers it

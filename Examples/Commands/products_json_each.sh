#!/bin/sh
# The way many people import JSON without writing a program: SQLite's own JSON functions through
# the sqlite3 shell, one INSERT ... SELECT over json_each(readfile(...)) that upserts every product,
# in one transaction. Run by bench as a strategy:
#   bench run --scenario products --command 'sql-json-each=sh Examples/Commands/products_json_each.sh'
set -eu
# The settings bench's own connection runs first (foreign keys, synchronous, busy timeout); the
# shell prints what a pragma returns, which bench keeps aside with the command's output.
sqlite3 "$BENCH_DB" <<SQL
${BENCH_CONNECTION_PRAGMAS:-};
INSERT INTO product (serialCode, name, brand, category, price, currency, stock, active, updatedAt, description)
SELECT value ->> 'serialCode', value ->> 'name', value ->> 'brand', value ->> 'category', value ->> 'price',
       value ->> 'currency', value ->> 'stock', value ->> 'active', value ->> 'updatedAt', value ->> 'description'
FROM json_each(readfile('$(printf "%s" "$BENCH_PAYLOAD" | sed "s/'/''/g")'))
WHERE true
ON CONFLICT (serialCode) DO UPDATE SET
    name = excluded.name, brand = excluded.brand, category = excluded.category, price = excluded.price,
    currency = excluded.currency, stock = excluded.stock, active = excluded.active, updatedAt = excluded.updatedAt,
    description = excluded.description;
SQL

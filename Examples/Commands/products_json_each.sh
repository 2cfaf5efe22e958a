#!/bin/sh
# The way many people import JSON without writing a program: SQLite's own JSON functions through
# the sqlite3 shell, one INSERT ... SELECT over json_each(readfile(...)) that upserts every product,
# in one transaction. Run by bench as a strategy:
#   bench run --scenario products --command 'sql-json-each=sh Examples/Commands/products_json_each.sh'
#
# A member absent from a product is not a null (JSON Merge Patch, RFC 7396): it keeps what the store
# or an earlier occurrence gave it; a member present with null sets NULL; a new product gets NULL for
# its absent members. An upsert's DO UPDATE SET sees only the row the SELECT made (excluded), not the
# JSON it came from, so the SELECT gives each occurrence the product as it stands after it: SQLite's
# json_patch, which is RFC 7396, applies the occurrence to the product as the previous occurrence
# left it, the first one to the stored row (to NULLs for a new product). json_patch keeps a member
# the occurrence lacks, and removes one the occurrence sets to null, which then reads as NULL.
set -eu
# The settings bench's own connection runs first (foreign keys, synchronous, busy timeout); the
# shell prints what a pragma returns, which bench keeps aside with the command's output.
sqlite3 "$BENCH_DB" <<SQL
${BENCH_CONNECTION_PRAGMAS:-};
WITH RECURSIVE
    -- Each product's occurrences numbered in payload order (n = 1, 2, ...).
    occurrence (serialCode, n, patch) AS MATERIALIZED (
        SELECT value ->> 'serialCode', row_number() OVER (PARTITION BY value ->> 'serialCode' ORDER BY key), value
        FROM json_each(readfile('$(printf "%s" "$BENCH_PAYLOAD" | sed "s/'/''/g")'))),
    -- The product after each occurrence: the first patches the stored row, each later one the one before.
    product_after (serialCode, n, product) AS (
        SELECT serialCode, n, json_patch(json_object(
            'name', name, 'brand', brand, 'category', category, 'price', price, 'currency', currency,
            'stock', stock, 'active', active, 'updatedAt', updatedAt, 'description', description), patch)
        FROM occurrence LEFT JOIN product USING (serialCode)
        WHERE n = 1
        UNION ALL
        SELECT serialCode, occurrence.n, json_patch(product_after.product, occurrence.patch)
        FROM product_after JOIN occurrence USING (serialCode)
        WHERE occurrence.n = product_after.n + 1)
INSERT INTO product (serialCode, name, brand, category, price, currency, stock, active, updatedAt, description)
SELECT serialCode, product ->> 'name', product ->> 'brand', product ->> 'category', product ->> 'price',
       product ->> 'currency', product ->> 'stock', product ->> 'active', product ->> 'updatedAt', product ->> 'description'
FROM product_after
WHERE true
ON CONFLICT (serialCode) DO UPDATE SET
    name = excluded.name, brand = excluded.brand, category = excluded.category, price = excluded.price,
    currency = excluded.currency, stock = excluded.stock, active = excluded.active, updatedAt = excluded.updatedAt,
    description = excluded.description;
SQL

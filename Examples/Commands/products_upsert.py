"""One upsert per product through executemany, one transaction per batch of BENCH_BATCH_SIZE:
no fetch at all, SQLite finds the row by serialCode inside the statement.

A member absent from a product is not a null (JSON Merge Patch, RFC 7396): the upsert's
DO UPDATE SET names only the columns whose member the product has, so an absent one keeps what the
store or an earlier occurrence gave it; a member present with null sets NULL; a new row gets NULL
for its absent members. Consecutive products of one shape (all of them, in a payload of whole
products) share one executemany, in payload order.

Run by bench as a strategy, with the paths on its command line (bench replaces {payload} and {db}):
    bench run --scenario products --command 'py-upsert=python3 Examples/Commands/products_upsert.py {payload} {db}'
"""
import functools
import itertools
import json
import os
import sqlite3
import sys

COLUMNS = ["name", "brand", "category", "price", "currency", "stock", "active", "updatedAt", "description"]


def present(product):
    """The columns whose member the product has."""
    return tuple(c for c in COLUMNS if c in product)


@functools.cache
def upsert_sql(columns):
    """Inserts every column (NULL where the member is absent); on conflict, updates `columns` only."""
    quoted = ", ".join(f'"{c}"' for c in COLUMNS)
    updates = ", ".join(f'"{c}" = excluded."{c}"' for c in columns)
    conflict = f"DO UPDATE SET {updates}" if columns else "DO NOTHING"  # given by serialCode alone
    return f"INSERT INTO product (serialCode, {quoted}) VALUES (?{', ?' * len(COLUMNS)}) ON CONFLICT(serialCode) {conflict}"


def main():
    payload_path, store_path = sys.argv[1:3] if len(sys.argv) > 2 else (os.environ["BENCH_PAYLOAD"], os.environ["BENCH_DB"])
    with open(payload_path, encoding="utf-8") as payload:
        products = json.load(payload)
    size = os.environ.get("BENCH_BATCH_SIZE", "1000")
    size = len(products) or 1 if size == "all" else int(size)
    store = sqlite3.connect(store_path, isolation_level=None)
    # What bench's own connection runs first (foreign keys, synchronous, busy timeout): per connection.
    for pragma in filter(None, os.environ.get("BENCH_CONNECTION_PRAGMAS", "").split(";")):
        store.execute(pragma)
    for start in range(0, len(products), size):
        store.execute("BEGIN IMMEDIATE")
        for columns, run in itertools.groupby(products[start:start + size], key=present):
            store.executemany(upsert_sql(columns), ([p["serialCode"]] + [p.get(c) for c in COLUMNS] for p in run))
        store.execute("COMMIT")
    store.close()


if __name__ == "__main__":
    main()

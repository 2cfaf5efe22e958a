"""One upsert per product through executemany, one transaction per batch of BENCH_BATCH_SIZE:
no fetch at all, SQLite finds the row by serialCode inside the statement.

Run by bench as a strategy, with the paths on its command line (bench replaces {payload} and {db}):
    bench run --scenario products --command 'py-upsert=python3 Examples/Commands/products_upsert.py {payload} {db}'
"""
import json
import os
import sqlite3
import sys

COLUMNS = ["name", "brand", "category", "price", "currency", "stock", "active", "updatedAt", "description"]


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
    quoted = ", ".join(f'"{c}"' for c in COLUMNS)
    upsert = (
        f"INSERT INTO product (serialCode, {quoted}) VALUES (?{', ?' * len(COLUMNS)}) "
        "ON CONFLICT(serialCode) DO UPDATE SET " + ", ".join(f'"{c}" = excluded."{c}"' for c in COLUMNS)
    )
    for start in range(0, len(products), size):
        store.execute("BEGIN IMMEDIATE")
        store.executemany(upsert, ([p["serialCode"]] + [p.get(c) for c in COLUMNS] for p in products[start:start + size]))
        store.execute("COMMIT")
    store.close()


if __name__ == "__main__":
    main()

"""Find-or-insert, as a first importer is written: per product, a SELECT by serialCode, then an
UPDATE or an INSERT; one transaction per batch of BENCH_BATCH_SIZE products.

A member absent from a product is not a null (JSON Merge Patch, RFC 7396): the UPDATE sets only the
columns whose member the product has, so an absent one keeps what the store or an earlier occurrence
gave it; a member present with null sets NULL; a new row gets NULL for its absent members.

Run by bench as a strategy:
    bench run --scenario products --command 'py-naive=python3 Examples/Commands/products_naive.py'
It reads the payload and the store from the environment bench sets (BENCH_PAYLOAD, BENCH_DB).
"""
import functools
import json
import os
import sqlite3

COLUMNS = ["name", "brand", "category", "price", "currency", "stock", "active", "updatedAt", "description"]


def batches(items, size):
    for start in range(0, len(items), size):
        yield items[start:start + size]


@functools.cache
def update_sql(columns):
    """The UPDATE of these columns only (a tuple: a product has few shapes, each built once)."""
    return "UPDATE product SET " + ", ".join(f'"{c}" = ?' for c in columns) + " WHERE pk = ?"


def main():
    with open(os.environ["BENCH_PAYLOAD"], encoding="utf-8") as payload:
        products = json.load(payload)
    size = os.environ.get("BENCH_BATCH_SIZE", "1000")
    size = len(products) or 1 if size == "all" else int(size)
    store = sqlite3.connect(os.environ["BENCH_DB"], isolation_level=None)
    # What bench's own connection runs first (foreign keys, synchronous, busy timeout): per connection.
    for pragma in filter(None, os.environ.get("BENCH_CONNECTION_PRAGMAS", "").split(";")):
        store.execute(pragma)
    find = "SELECT pk FROM product WHERE serialCode = ?"
    insert = "INSERT INTO product (serialCode, " + ", ".join(f'"{c}"' for c in COLUMNS) + ") VALUES (?" + ", ?" * len(COLUMNS) + ")"
    # Progress, as bench shows a built-in's: lines "occurrences N" on the descriptor it names.
    progress = int(os.environ["BENCH_PROGRESS_FD"]) if "BENCH_PROGRESS_FD" in os.environ else None
    done = 0
    for batch in batches(products, size):
        store.execute("BEGIN IMMEDIATE")
        for product in batch:
            row = store.execute(find, (product["serialCode"],)).fetchone()
            if row:
                present = tuple(c for c in COLUMNS if c in product)
                if present:  # a product given by its serialCode alone changes nothing
                    store.execute(update_sql(present), [product[c] for c in present] + [row[0]])
            else:
                store.execute(insert, [product["serialCode"]] + [product.get(c) for c in COLUMNS])  # absent: NULL
        store.execute("COMMIT")
        done += len(batch)
        if progress is not None:
            os.write(progress, f"occurrences {done}\n".encode())
    store.close()


if __name__ == "__main__":
    main()

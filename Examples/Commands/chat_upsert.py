"""Upserts on chat, no fetch of its own: per occurrence one INSERT ... ON CONFLICT DO UPDATE whose
foreign keys are found by the targets' natural keys inside the statement, each set pair likewise;
the statements of a batch go through executemany while they are of one kind, in payload order (the
last occurrence of an object must win). A statement names only the columns its occurrence has
(chat_payload.py leaves out those whose member is absent): DO UPDATE SET changes those alone, so a
partial occurrence keeps what the store or an earlier one gave; a new row gets NULL for the rest.
A transaction per BENCH_BATCH_SIZE occurrences.
    bench run --scenario chat --command 'py-upsert=python3 Examples/Commands/chat_upsert.py'
"""
import os
import sqlite3

import chat_payload


def upsert_sql(entity, columns, references):
    key = chat_payload.key_column(entity)
    names = [key] + [c for c, _ in columns] + [c for c, _, _, _ in references]
    values = ["?"] * (1 + len(columns)) + [
        f'(SELECT pk FROM "{target}" WHERE "{chat_payload.key_column(target)}" = ?)' for _, target, _, _ in references
    ]
    updates = ", ".join(f'"{n}" = excluded."{n}"' for n in names[1:])
    conflict = f"DO UPDATE SET {updates}" if updates else "DO NOTHING"  # an object given by its key alone
    return (f'INSERT INTO "{entity}" ({", ".join(f"{chr(34)}{n}{chr(34)}" for n in names)}) VALUES ({", ".join(values)}) '
            f'ON CONFLICT ("{key}") {conflict}')


def pair_sql(entity, table, target):
    source = f'(SELECT pk FROM "{entity}" WHERE "{chat_payload.key_column(entity)}" = ?)'
    member = f'(SELECT pk FROM "{target}" WHERE "{chat_payload.key_column(target)}" = ?)'
    return f'INSERT INTO "{table}" (source_pk, target_pk) VALUES ({source}, {member}) ON CONFLICT DO NOTHING'


def main():
    store = sqlite3.connect(os.environ["BENCH_DB"], isolation_level=None)
    # What bench's own connection runs first (foreign keys, synchronous, busy timeout): per connection.
    for pragma in filter(None, os.environ.get("BENCH_CONNECTION_PRAGMAS", "").split(";")):
        store.execute(pragma)
    size = os.environ.get("BENCH_BATCH_SIZE", "1000")
    size = None if size == "all" else int(size)
    pending, pending_sql = [], None

    def flush():
        nonlocal pending, pending_sql
        if pending:
            store.executemany(pending_sql, pending)
        pending, pending_sql = [], None

    def run(sql, parameters):
        nonlocal pending_sql
        if sql != pending_sql:
            flush()
            pending_sql = sql
        pending.append(parameters)

    written = 0
    store.execute("BEGIN IMMEDIATE")
    for occurrences in chat_payload.channels(os.environ["BENCH_PAYLOAD"]):
        for entity, key, columns, references, sets in occurrences:
            run(upsert_sql(entity, columns, references), [key] + [v for _, v in columns] + [k for _, _, k, _ in references])
            for table, target, members in sets:
                for member in members:
                    run(pair_sql(entity, table, target), (key, member))
            written += 1
            if size and written % size == 0:
                flush()
                store.execute("COMMIT")
                store.execute("BEGIN IMMEDIATE")
    flush()
    store.execute("COMMIT")
    store.close()


if __name__ == "__main__":
    main()

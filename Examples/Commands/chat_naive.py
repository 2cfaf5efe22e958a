"""Find-or-insert on chat, as a first importer is written: per occurrence a SELECT of the object by
its natural key, then UPDATE or INSERT; a reference to an object embedded earlier in the channel
uses the pk that object got, one given by key alone costs a SELECT; a transaction per
BENCH_BATCH_SIZE occurrences. The UPDATE sets, and the INSERT fills, only the columns an occurrence
has (chat_payload.py leaves out those whose member is absent): a partial occurrence, a user embedded
with fewer members than before, keeps the stored values; a new row gets NULL for the rest.
Run by bench as a strategy:
    bench run --scenario chat --command 'py-naive=python3 Examples/Commands/chat_naive.py'
"""
import os
import sqlite3
import sys

import chat_payload


def main():
    store = sqlite3.connect(os.environ["BENCH_DB"], isolation_level=None)
    # What bench's own connection runs first (foreign keys, synchronous, busy timeout): per connection.
    for pragma in filter(None, os.environ.get("BENCH_CONNECTION_PRAGMAS", "").split(";")):
        store.execute(pragma)
    size = os.environ.get("BENCH_BATCH_SIZE", "1000")
    size = None if size == "all" else int(size)
    written = 0
    store.execute("BEGIN IMMEDIATE")
    for occurrences in chat_payload.channels(os.environ["BENCH_PAYLOAD"]):
        pk_in_channel = {}  # (entity, key) -> pk of its latest occurrence in this channel
        for entity, key, columns, references, sets in occurrences:
            foreign = []
            for _, target, target_key, embedded in references:
                if target_key is None:
                    foreign.append(None)
                elif embedded:
                    foreign.append(pk_in_channel[(target, target_key)])
                else:
                    row = store.execute(f'SELECT pk FROM "{target}" WHERE "{chat_payload.key_column(target)}" = ?', (target_key,)).fetchone()
                    if row is None:
                        sys.exit(f"{entity} {key}: refers to {target} {target_key}, neither stored nor earlier in the payload")
                    foreign.append(row[0])
            names = [c for c, _ in columns] + [c for c, _, _, _ in references]
            values = [v for _, v in columns] + foreign
            key_column = chat_payload.key_column(entity)
            row = store.execute(f'SELECT pk FROM "{entity}" WHERE "{key_column}" = ?', (key,)).fetchone()
            if row:
                pk = row[0]
                if names:  # an object given by its key alone changes nothing
                    store.execute(f'UPDATE "{entity}" SET ' + ", ".join(f'"{n}" = ?' for n in names) + " WHERE pk = ?", values + [pk])
            else:
                quoted = ", ".join(f'"{n}"' for n in [key_column] + names)
                pk = store.execute(f'INSERT INTO "{entity}" ({quoted}) VALUES ({", ".join("?" * (len(names) + 1))})', [key] + values).lastrowid
            pk_in_channel[(entity, key)] = pk
            for table, target, members in sets:
                for member in members:
                    store.execute(f'INSERT OR IGNORE INTO "{table}" (source_pk, target_pk) VALUES (?, ?)', (pk, pk_in_channel[(target, member)]))
            written += 1
            if size and written % size == 0:
                store.execute("COMMIT")
                store.execute("BEGIN IMMEDIATE")
    store.execute("COMMIT")
    store.close()


if __name__ == "__main__":
    main()

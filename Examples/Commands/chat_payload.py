"""Reads a Stream Chat channel list (bench's chat scenario) into occurrences, in the order bench's
own reader emits them: each embedded object before the object that refers to it, a channel before
its messages, a message before its reactions and attachments. The importers replay them in order,
so the last occurrence of an object wins, as the verifier expects (bench schema --scenario chat).

An occurrence is (entity, key, columns, references, sets):
  columns     [(column, value)]                       the entity's attributes the object has
  references  [(fk column, target entity, key or None, embedded)]: embedded when the target's own
              occurrence came earlier in the same channel; else a reference by key alone
  sets        [(join table, target entity, [keys])]: the members, each embedded earlier

A member absent from the object is not a null (JSON Merge Patch, RFC 7396): its column, or its
reference, is left out of the occurrence, and the importers write only what an occurrence has, so a
stored row, or an earlier occurrence (a user embedded in many messages, some of them partly), keeps
that value; a member present with null is there as None and sets NULL; a new row gets NULL for
what its occurrence leaves out. Sets and owned children are read as before.
"""
import json


def present(item, names):
    """(name, value) for each of `names` the item has, null or not; an absent one is left out."""
    return [(name, item[name]) for name in names if name in item]


def user(item):
    return ("user", item["id"], present(item, ("name", "role", "image", "created_at", "updated_at", "online")), [], [])


def message(item, cid, out, quoted_copy=False):
    author = item.get("user")
    if author is not None:
        out.append(user(author))
    references = [("channel_pk", "channel", cid, True)]
    if "user" in item:
        references.append(("user_pk", "user", author["id"] if author is not None else None, True))
    # Stream embeds the quoted message whole beside its id; a quoted copy's own quote is read by key,
    # and so is a quote whose copy is absent or null (by quoted_message_id, when that is there).
    quoted = item.get("quoted_message")
    if not quoted_copy and quoted is not None:
        references.append(("quoted_message_pk", "message", message(quoted, cid, out, quoted_copy=True), True))
    elif "quoted_message_id" in item:
        references.append(("quoted_message_pk", "message", item["quoted_message_id"], False))
    reactions = item.get("latest_reactions")
    for reaction in reactions or []:
        out.append(user(reaction["user"]))
    mentioned = item.get("mentioned_users")
    for mention in mentioned or []:
        out.append(user(mention))
    columns = present(item, ("text", "type", "created_at", "updated_at"))
    sets = [("message_mentioned_users", "user", [m["id"] for m in mentioned or []])]
    out.append(("message", item["id"], columns, references, sets))
    for reaction in reactions or []:
        key = f"{item['id']}/{reaction['user']['id']}/{reaction['type']}"
        columns = [("type", reaction["type"])] + present(reaction, ("score", "created_at"))
        out.append(("reaction", key, columns, [("message_pk", "message", item["id"], True), ("user_pk", "user", reaction["user"]["id"], True)], []))
    for index, attachment in enumerate(item.get("attachments") or []):
        columns = present(attachment, ("type", "title", "asset_url", "image_url", "mime_type", "file_size"))
        out.append(("attachment", f"{item['id']}/{index}", columns, [("message_pk", "message", item["id"], True)], []))
    return item["id"]


def channel(element, out):
    info = element["channel"]
    cid = info["cid"]
    creator = info.get("created_by")
    if creator is not None:
        out.append(user(creator))
    columns = present(info, ("id", "type", "name", "created_at", "updated_at")) + present(element, ("watcher_count",))
    references = [("created_by_pk", "user", creator["id"] if creator is not None else None, True)] if "created_by" in info else []
    out.append(("channel", cid, columns, references, []))
    for item in element.get("messages") or []:
        message(item, cid, out)
    for entity, items, fields in (("member", element.get("members"), ("role", "created_at")), ("read", element.get("read"), ("last_read", "unread_messages"))):
        for item in items or []:
            out.append(user(item["user"]))
            columns = present(item, fields)
            references = [("channel_pk", "channel", cid, True), ("user_pk", "user", item["user"]["id"], True)]
            out.append((entity, f"{cid}/{item['user']['id']}", columns, references, []))


def channels(path):
    """The occurrences of each channel in turn: a list per channel."""
    with open(path, encoding="utf-8") as payload:
        document = json.load(payload)
    for element in document["channels"]:
        out = []
        channel(element, out)
        yield out


def key_column(entity):
    return {"channel": "cid", "reaction": "key", "attachment": "key", "member": "key", "read": "key"}.get(entity, "id")

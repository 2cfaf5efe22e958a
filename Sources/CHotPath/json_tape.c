// The decoder's hot loop: one JSON object or array at the start of a read buffer, parsed into the
// token list JSONTape reads. It accepts exactly what JSONTapeParser (Swift) accepts and writes the
// same tokens; it only builds no error. Swift's parser stays the reference and gives every located
// error: a value this one refuses is parsed again there. In C because the same loop in Swift cost
// about 160 instructions a token (error plumbing, exclusivity and bounds bookkeeping around every
// byte), which docs/performance-log.md's harness-tax section measures.
#include "CHotPath.h"

#include <string.h>

enum { KIND_OBJECT = 0, KIND_ARRAY = 1, KIND_STRING = 2, KIND_NUMBER = 3, KIND_BOOL = 4, KIND_NULL = 5 };
enum { FLAG_HAS_ESCAPES = 1, FLAG_FRACTION_OR_EXPONENT = 2, FLAG_IS_TRUE = 4, FLAG_MAY_REPEAT_KEYS = 8 };

/// Objects with more keys than this are flagged as maybe repeating a key without comparing them.
#define COMPARED_KEYS 64

typedef struct {
    const uint8_t *input;
    size_t length;
    size_t position;
    importbench_json_token *tokens;
    size_t capacity;
    size_t count;
    uint32_t *open;
    size_t depth;
    /// Where a failure was found: decides between "needs more bytes" and "invalid". A pointer to
    /// a variable of its own, so that checks outside the loop can set it without the parser's
    /// address being taken (which would keep its fields out of registers).
    size_t *failure;
    size_t longest_string;
    size_t longest_number;
    /// Per open container, 256 bits, one per key signature met so far in it (objects only): a key
    /// whose bit is already set is compared with the earlier keys in full.
    uint64_t *seen_keys;
} parser;

#define FAIL_AT(index) do { *p->failure = (index); return 0; } while (0)

static inline int is_whitespace(uint8_t byte) {
    return byte == ' ' || byte == '\n' || byte == '\r' || byte == '\t';
}

static inline void skip_whitespace(parser *p) {
    // Machine-written JSON mostly has none: every byte that can start a token is above a space.
    if (__builtin_expect(p->position < p->length && p->input[p->position] > ' ', 1)) return;
    while (p->position < p->length && is_whitespace(p->input[p->position])) p->position++;
}

static inline int is_digit_at(const parser *p, size_t index) {
    return index < p->length && p->input[index] >= '0' && p->input[index] <= '9';
}

/// The four hex digits at `offset` as a UTF-16 code unit, or -1.
static long hex_quad(const uint8_t *input, size_t length, size_t offset) {
    if (offset + 4 > length) return -1;
    long value = 0;
    for (size_t index = offset; index < offset + 4; index++) {
        uint8_t byte = input[index];
        int digit;
        if (byte >= '0' && byte <= '9') digit = byte - '0';
        else if (byte >= 'a' && byte <= 'f') digit = byte - 'a' + 10;
        else if (byte >= 'A' && byte <= 'F') digit = byte - 'A' + 10;
        else return -1;
        value = value << 4 | digit;
    }
    return value;
}

/// Where a check that is not inlined failed: kept apart from the parser so that the parser's own
/// state never has its address taken, and stays in registers.
#define FAIL_OUT(index) do { *failure = (index); return 0; } while (0)

/// The escape whose backslash is at `index`: the index after it, or 0 (`*failure` set).
static __attribute__((noinline)) size_t escape(const uint8_t *input, size_t length, size_t index, size_t *failure) {
    if (index + 1 >= length) FAIL_OUT(length);
    switch (input[index + 1]) {
    case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
        return index + 2;
    case 'u': {
        long unit = hex_quad(input, length, index + 2);
        if (unit < 0 || (unit >= 0xDC00 && unit <= 0xDFFF)) FAIL_OUT(index);
        if (unit < 0xD800 || unit > 0xDBFF) return index + 6;
        size_t low = index + 6;
        if (!(low + 1 < length && input[low] == '\\' && input[low + 1] == 'u')) FAIL_OUT(index);
        long low_unit = hex_quad(input, length, low + 2);
        if (low_unit < 0xDC00 || low_unit > 0xDFFF) FAIL_OUT(index);
        return low + 6;
    }
    default:
        FAIL_OUT(index);
    }
}

/// The UTF-8 sequence at `index` (RFC 3629): the index after it, or 0 (`*failure` set).
static __attribute__((noinline)) size_t utf8_sequence(const uint8_t *input, size_t length, size_t index, size_t *failure) {
    uint8_t lead = input[index];
    size_t sequence;
    uint8_t low = 0x80, high = 0xBF;
    if (lead >= 0xC2 && lead <= 0xDF) sequence = 2;
    else if (lead == 0xE0) { sequence = 3; low = 0xA0; }
    else if ((lead >= 0xE1 && lead <= 0xEC) || lead == 0xEE || lead == 0xEF) sequence = 3;
    else if (lead == 0xED) { sequence = 3; high = 0x9F; }
    else if (lead == 0xF0) { sequence = 4; low = 0x90; }
    else if (lead >= 0xF1 && lead <= 0xF3) sequence = 4;
    else if (lead == 0xF4) { sequence = 4; high = 0x8F; }
    else FAIL_OUT(index);
    if (index + sequence > length || input[index + 1] < low || input[index + 1] > high) FAIL_OUT(index);
    for (size_t continuation = index + 2; continuation < index + sequence; continuation++) {
        if ((input[continuation] & 0xC0) != 0x80) FAIL_OUT(index);
    }
    return index + sequence;
}

/// From the opening quote at `start` to past the closing one: the end, or 0 (failure set).
static inline __attribute__((always_inline)) size_t string(parser *p, size_t start, uint8_t *flags) {
    size_t index = start + 1;
    while (1) {
        index = importbench_json_string_special(p->input, index, p->length);
        if (index >= p->length) FAIL_AT(p->length);
        uint8_t byte = p->input[index];
        if (byte == '"') {
            if (index + 1 - start > p->longest_string) FAIL_AT(start);
            return index + 1;
        }
        if (byte == '\\') {
            *flags |= FLAG_HAS_ESCAPES;
            index = escape(p->input, p->length, index, p->failure);
        } else if (byte >= 0x80) {
            index = utf8_sequence(p->input, p->length, index, p->failure);
        } else {
            FAIL_AT(index);  // a control byte
        }
        if (index == 0) return 0;
    }
}

/// RFC 8259 numbers: the end, or 0 (failure set).
static inline __attribute__((always_inline)) size_t number(parser *p, size_t start, uint8_t *flags) {
    size_t index = start;
    if (p->input[index] == '-') index++;
    if (!is_digit_at(p, index)) FAIL_AT(index < p->length ? index : p->length);
    if (p->input[index] == '0') {
        index++;
    } else {
        while (is_digit_at(p, index)) index++;
    }
    if (index < p->length && p->input[index] == '.') {
        *flags |= FLAG_FRACTION_OR_EXPONENT;
        index++;
        if (!is_digit_at(p, index)) FAIL_AT(index < p->length ? index : p->length);
        while (is_digit_at(p, index)) index++;
    }
    if (index < p->length && (p->input[index] | 0x20) == 'e') {
        *flags |= FLAG_FRACTION_OR_EXPONENT;
        index++;
        if (index < p->length && (p->input[index] == '+' || p->input[index] == '-')) index++;
        if (!is_digit_at(p, index)) FAIL_AT(index < p->length ? index : p->length);
        while (is_digit_at(p, index)) index++;
    }
    if (index - start > p->longest_number) FAIL_AT(start);
    return index;
}

static size_t literal(parser *p, size_t start, const char *text, size_t length) {
    if (start + length > p->length) FAIL_AT(start);
    for (size_t offset = 0; offset < length; offset++) {
        if (p->input[start + offset] != (uint8_t)text[offset]) FAIL_AT(start);
    }
    return start + length;
}

/// Appends a token, field by field (a 16-byte struct built in registers first costs twice the
/// instructions): 1 on success, 0 when the buffer is full (failure is then left as SIZE_MAX).
static inline int append(parser *p, uint32_t start, uint32_t end_or_count, uint32_t next, uint8_t kind, uint8_t flags) {
    if (p->count == p->capacity) {
        *p->failure = SIZE_MAX;
        return 0;
    }
    importbench_json_token *token = p->tokens + p->count++;
    token->start = start;
    token->end_or_count = end_or_count;
    token->next = next;
    token->kind = kind;
    token->flags = flags;
    token->key_bits = 0;
    return 1;
}

static inline int append_scalar(parser *p, uint8_t kind, size_t start, uint8_t flags) {
    return append(p, (uint32_t)start, (uint32_t)p->position, (uint32_t)(p->count + 1), kind, flags);
}

static inline uint16_t key_bit(const uint8_t *key, size_t length) {
    if (length == 0) return 1;
    return (uint16_t)(1u << ((length * 7 + key[0] + (size_t)key[length - 1] * 3) & 15));
}

/// Flags `object` when its last key has escapes or the same bytes as an earlier key.
static __attribute__((noinline)) void mark_if_key_repeats(
    const uint8_t *input, importbench_json_token *tokens, size_t count, size_t object
) {
    if (tokens[object].flags & FLAG_MAY_REPEAT_KEYS) return;
    importbench_json_token new_key = tokens[count - 1];
    size_t earlier_keys = tokens[object].end_or_count - 1;
    int repeats = (new_key.flags & FLAG_HAS_ESCAPES) || earlier_keys > COMPARED_KEYS;
    size_t new_length = new_key.end_or_count - new_key.start;
    size_t member = object + 1;
    for (size_t key = 0; key < earlier_keys && !repeats; key++) {
        importbench_json_token earlier = tokens[member];
        // Length and first byte first: most keys differ there, and a memcmp call costs more than
        // the comparison (quakes' 26-key properties spent 8 % of decoding in memcmp).
        repeats = earlier.end_or_count - earlier.start == new_length
            && input[earlier.start + 1] == input[new_key.start + 1]
            && memcmp(input + earlier.start, input + new_key.start, new_length) == 0;
        member = tokens[member + 1].next;
    }
    if (repeats) tokens[object].flags |= FLAG_MAY_REPEAT_KEYS;
}

/// 8 bits from a key's quoted length and its first two and last two bytes: with the first and
/// last byte alone, created_at and online shared a signature in every chat user (32,153 walks on
/// chat 1x); with these, no two keys of one chat object share one, and a USGS feature's 26
/// properties share one.
static inline uint32_t key_signature(const uint8_t *quoted, size_t length) {
    uint64_t inner = length >= 3 ? (uint64_t)quoted[2] << 24 | (uint64_t)quoted[length - 3] << 32 : 0;
    uint64_t mixed = (uint64_t)length | (uint64_t)quoted[1] << 8 | (uint64_t)quoted[length - 2] << 16 | inner;
    return (uint32_t)((mixed * 0xFF51AFD7ED558CCDull) >> 56);
}

/// A member's key and its colon.
static inline __attribute__((always_inline)) int begin_member(parser *p, size_t object) {
    if (p->position >= p->length) FAIL_AT(p->length);
    size_t start = p->position;
    if (p->input[start] != '"') FAIL_AT(start);
    uint8_t flags = 0;
    size_t end = string(p, start, &flags);
    if (end == 0) return 0;
    p->position = end;
    if (!append_scalar(p, KIND_STRING, start, flags)) return 0;
    importbench_json_token *tokens = p->tokens;
    uint32_t signature = key_signature(p->input + start, end - start);
    uint64_t *seen = p->seen_keys + (p->depth - 1) * 4 + (signature >> 6);
    uint64_t bit = (uint64_t)1 << (signature & 63);
    int collides = (*seen & bit) != 0;
    *seen |= bit;
    if (collides || (flags & FLAG_HAS_ESCAPES)) mark_if_key_repeats(p->input, tokens, p->count, object);
    tokens[object].key_bits |= key_bit(p->input + start + 1, end - start - 2);
    skip_whitespace(p);
    if (p->position >= p->length) FAIL_AT(p->length);
    if (p->input[p->position] != ':') FAIL_AT(p->position);
    p->position++;
    return 1;
}

/// A value: 1 for a scalar parsed whole, 2 for a container opened, 0 on failure.
static inline __attribute__((always_inline)) int begin_value(parser *p) {
    skip_whitespace(p);
    if (p->position >= p->length) FAIL_AT(p->length);
    size_t start = p->position;
    uint8_t byte = p->input[start];
    uint8_t flags = 0;
    size_t end;
    uint8_t kind;
    switch (byte) {
    case '{': case '[': {
        if (p->depth >= IMPORTBENCH_JSON_MAXIMUM_DEPTH) FAIL_AT(start);
        if (byte == '{') {
            uint64_t *seen = p->seen_keys + p->depth * 4;
            seen[0] = seen[1] = seen[2] = seen[3] = 0;
        }
        p->open[p->depth++] = (uint32_t)p->count;
        if (!append(p, (uint32_t)start, 0, 0, byte == '{' ? KIND_OBJECT : KIND_ARRAY, 0)) return 0;
        p->position++;
        return 2;
    }
    case '"':
        end = string(p, start, &flags);
        kind = KIND_STRING;
        break;
    case '-': case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': case '8': case '9':
        end = number(p, start, &flags);
        kind = KIND_NUMBER;
        break;
    case 't':
        end = literal(p, start, "true", 4);
        kind = KIND_BOOL;
        flags = FLAG_IS_TRUE;
        break;
    case 'f':
        end = literal(p, start, "false", 5);
        kind = KIND_BOOL;
        break;
    case 'n':
        end = literal(p, start, "null", 4);
        kind = KIND_NULL;
        break;
    default:
        FAIL_AT(start);
    }
    if (end == 0) return 0;
    p->position = end;
    return append_scalar(p, kind, start, flags);
}

int importbench_json_parse_prefix(
    const uint8_t *input, size_t length, importbench_json_token *tokens, size_t capacity, uint32_t *open_containers,
    size_t longest_string, size_t longest_number, size_t *token_count, size_t *consumed
) {
    size_t failure = 0;
    uint64_t seen_keys[IMPORTBENCH_JSON_MAXIMUM_DEPTH * 4];
    parser state = {
        input, length, 0, tokens, capacity, 0, open_containers, 0, &failure, longest_string, longest_number, seen_keys
    };
    parser *p = &state;
    int opened = begin_value(p);
    while (opened != 0 && p->depth > 0) {
        size_t container = p->open[p->depth - 1];
        int is_object = tokens[container].kind == KIND_OBJECT;
        skip_whitespace(p);
        if (p->position >= length) {
            failure = length;
            opened = 0;
            break;
        }
        uint8_t byte = input[p->position];
        if (byte == (is_object ? '}' : ']')) {
            p->position++;
            tokens[container].next = (uint32_t)p->count;
            p->depth--;
            opened = 1;
            continue;
        }
        if (opened != 2) {
            if (byte != ',') {
                failure = p->position;
                opened = 0;
                break;
            }
            p->position++;
            // Before a key; a value skips its own.
            if (is_object) skip_whitespace(p);
        }
        tokens[container].end_or_count++;
        if (is_object && !begin_member(p, container)) {
            opened = 0;
            break;
        }
        opened = begin_value(p);
    }
    *token_count = p->count;
    *consumed = p->position;
    if (opened != 0) return IMPORTBENCH_JSON_PARSED;
    if (failure == SIZE_MAX) return IMPORTBENCH_JSON_TOKENS_FULL;
    // A check looks at most a few bytes ahead, so a failure this close to the end may be the
    // buffer's end, not the value's.
    return failure + 16 >= length ? IMPORTBENCH_JSON_NEEDS_MORE_BYTES : IMPORTBENCH_JSON_INVALID;
}

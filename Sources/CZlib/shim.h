#include <zlib.h>

// inflateInit2 is a macro; Swift calls this instead. windowBits 15 + 32: a zlib or gzip stream,
// told apart by its header.
static inline int czlib_inflate_init(z_stream *stream) {
    return inflateInit2(stream, 15 + 32);
}

#include <zlib.h>

// inflateInit2 is a macro; Swift calls this instead. windowBits 15 + 32: a zlib or gzip stream,
// told apart by its header.
static inline int czlib_inflate_init(z_stream *stream) {
    return inflateInit2(stream, 15 + 32);
}

// deflateInit2 is a macro too: a gzip stream (windowBits 15 + 16) at `level`.
static inline int czlib_deflate_init_gzip(z_stream *stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}

#ifndef CHOTPATH_H
#define CHOTPATH_H

/// Asks the CPU to start loading the cache line at `address`: a lookup issued now, used a few
/// hundred instructions later, then finds it in cache. Swift has no way to spell this.
static inline void importbench_prefetch(const void *address) {
    __builtin_prefetch(address);
}

#endif

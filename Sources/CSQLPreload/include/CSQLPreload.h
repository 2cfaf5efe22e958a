#ifndef IMPORTBENCH_CSQLPRELOAD_H
#define IMPORTBENCH_CSQLPRELOAD_H

// The preloaded library has no interface of its own: it works from its constructor and destructor.
// The names it shares with bench (its environment variable, its line format) are in CSQLCounter.h.

#endif

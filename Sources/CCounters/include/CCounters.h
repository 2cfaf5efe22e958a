#ifndef IMPORTBENCH_CCOUNTERS_H
#define IMPORTBENCH_CCOUNTERS_H

/// Opens a counter of the user-space instructions the calling thread retires, through the kernel's
/// perf_event_open (which Swift cannot call: it has no libc wrapper and syscall is variadic). The
/// counter runs from now on. Returns its descriptor, or minus the errno that refused it (-ENOSYS
/// off Linux). Defined in counters.c.
int importbench_instructions_open(void);

/// The instructions counted so far on `descriptor`, or -1 when it cannot be read.
long long importbench_instructions_read(int descriptor);

#endif

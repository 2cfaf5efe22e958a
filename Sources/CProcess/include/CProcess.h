#ifndef IMPORTBENCH_CPROCESS_H
#define IMPORTBENCH_CPROCESS_H

/// Asks the kernel to send `signal` to this process when its parent dies (Linux's
/// PR_SET_PDEATHSIG); 0 on success, -1 where unsupported. Here because prctl is variadic, which
/// Swift cannot call. Defined in process.c.
int importbench_signal_on_parent_death(int signal);

#endif

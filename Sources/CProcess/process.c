// Process controls Swift cannot call directly.
#include "CProcess.h"

#if defined(__linux__)
#include <sys/prctl.h>

int importbench_signal_on_parent_death(int signal) {
    return prctl(PR_SET_PDEATHSIG, (unsigned long)signal, 0UL, 0UL, 0UL);
}

int importbench_name_this_thread(const char *name) {
    return prctl(PR_SET_NAME, (unsigned long)name, 0UL, 0UL, 0UL);
}
#else
int importbench_signal_on_parent_death(int signal) {
    (void)signal;
    return -1;
}

int importbench_name_this_thread(const char *name) {
    (void)name;
    return -1;
}
#endif

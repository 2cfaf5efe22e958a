// The kernel's performance counters, for an instruction count of the import alone.
#include "CCounters.h"

#include <errno.h>

#if defined(__linux__)
#include <linux/perf_event.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int importbench_instructions_open(void) {
    struct perf_event_attr attributes;
    memset(&attributes, 0, sizeof attributes);
    attributes.type = PERF_TYPE_HARDWARE;
    attributes.size = sizeof attributes;
    attributes.config = PERF_COUNT_HW_INSTRUCTIONS;
    // User space only: what bench's code and SQLite execute, the same whatever the kernel does for
    // I/O, and allowed at perf_event_paranoid 2 (Debian's default) without privileges.
    attributes.exclude_kernel = 1;
    attributes.exclude_hv = 1;
    long descriptor = syscall(SYS_perf_event_open, &attributes, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
    return descriptor < 0 ? -errno : (int)descriptor;
}

long long importbench_instructions_read(int descriptor) {
    unsigned long long value = 0;
    return read(descriptor, &value, sizeof value) == (ssize_t)sizeof value ? (long long)value : -1;
}
#else
int importbench_instructions_open(void) { return -ENOSYS; }

long long importbench_instructions_read(int descriptor) {
    (void)descriptor;
    return -1;
}
#endif

// A user's command run as a strategy (`bench run --command`): started in a process group of its
// own, under a supervisor process that is its parent and the child subreaper of everything it
// starts, so that nothing the command starts outlives it, however it hides (a process group of its
// own, a new session, a double fork), and nothing outlives bench, however bench dies. Written in C
// because what runs in a forked child of a threaded process must be async-signal-safe, which Swift
// cannot promise: the supervisor never calls malloc, stdio or a lock, only system calls.
#define _GNU_SOURCE
#include "CProcess.h"
#include "directory_entry.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#if defined(__linux__)
#include <sys/prctl.h>
#endif

// MARK: Relaying signals to the command's group

// The signal bench sends the supervisor to pass a signal on to the command's group (the signal to
// pass on rides in its value). Real-time, so that a SIGTERM and the SIGKILL after it are both
// delivered, never merged.
#if defined(__linux__)
#define RELAY_SIGNAL (SIGRTMIN + 3)
#else
#define RELAY_SIGNAL SIGUSR1
#endif

// The supervisor of the command running now (0: none), for the handler of bench's stopping signals.
static atomic_int running_supervisor;

static void relay(int supervisor, int signal) {
    if (supervisor <= 0) return;
#if defined(__linux__)
    union sigval value;
    value.sival_int = signal;
    sigqueue(supervisor, RELAY_SIGNAL, value);
#else
    (void)signal;
    kill(supervisor, RELAY_SIGNAL);
#endif
}

void importbench_command_group_signal(int signal) { relay(atomic_load(&running_supervisor), signal); }

void importbench_command_relay(const struct importbench_command *command, int signal) { relay(command->supervisor, signal); }

// MARK: Helpers for forked children (async-signal-safe)

// In a forked child, whose signals the parent blocked around the fork: every signal back to its
// default action (no handler of bench's can run here). Still blocked.
static void default_signals(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = SIG_DFL;
    for (int number = 1; number < NSIG; number++) {
        if (number != SIGKILL && number != SIGSTOP) sigaction(number, &action, NULL);
    }
}

static void unblock_signals(void) {
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
}

// Every descriptor from `first` on closed: bench's files, pipes and sockets stay bench's.
static void close_from(int first) {
#if defined(__linux__) && defined(SYS_close_range)
    if (syscall(SYS_close_range, (unsigned)first, ~0U, 0U) == 0) return;
#endif
    long limit = sysconf(_SC_OPEN_MAX);
    if (limit < 0 || limit > 65536) limit = 65536;
    for (int descriptor = first; descriptor < limit; descriptor++) close(descriptor);
}

static int write_all(int descriptor, const void *bytes, size_t count) {
    const char *next = bytes;
    while (count > 0) {
        ssize_t written = write(descriptor, next, count);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) return -1;
        next += written;
        count -= (size_t)written;
    }
    return 0;
}

static ssize_t read_all(int descriptor, void *bytes, size_t count) {
    char *next = bytes;
    size_t total = 0;
    while (total < count) {
        ssize_t got = read(descriptor, next + total, count - total);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;
        total += (size_t)got;
    }
    return (ssize_t)total;
}

static long long now_nanoseconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000000000LL + now.tv_nsec;
}

static void pause_briefly(void) {
    struct timespec pause = {0, 2000000};
    nanosleep(&pause, NULL);
}

// `prefix` + `number` + `suffix` into `buffer` (at least 64 bytes), as snprintf would, without it.
static void number_path(char *buffer, const char *prefix, int number, const char *suffix) {
    size_t at = 0;
    for (const char *c = prefix; *c; c++) buffer[at++] = *c;
    char digits[16];
    int count = 0;
    unsigned value = (unsigned)number;
    do {
        digits[count++] = (char)('0' + value % 10);
        value /= 10;
    } while (value > 0 && count < 15);
    while (count > 0) buffer[at++] = digits[--count];
    for (const char *c = suffix; *c; c++) buffer[at++] = *c;
    buffer[at] = 0;
}

// MARK: The processes of the machine, as /proc lists them (the supervisor's own table)

#if defined(__linux__)
struct process_entry {
    int pid;
    int parent;
    int group;
    char zombie;
    char marked;
};

// Enough for any machine bench runs on; past it, the rest are not seen (and are killed with their group).
#define PROCESS_TABLE_SIZE 65536
static struct process_entry process_table[PROCESS_TABLE_SIZE];
static int process_count;

static int parse_number(const char *text, const char *end, const char **after) {
    int value = 0;
    while (text < end && *text == ' ') text++;
    while (text < end && *text >= '0' && *text <= '9') value = value * 10 + (*text++ - '0');
    *after = text;
    return value;
}

// /proc/PID/stat: "PID (NAME) STATE PARENT GROUP ...", NAME possibly holding spaces and parentheses.
static int read_process(int pid, struct process_entry *entry) {
    char path[64], text[512];
    number_path(path, "/proc/", pid, "/stat");
    int descriptor = open(path, O_RDONLY | O_CLOEXEC);
    if (descriptor < 0) return -1;
    ssize_t count = read_all(descriptor, text, sizeof text);
    close(descriptor);
    if (count <= 0) return -1;
    const char *end = text + count, *close_paren = NULL;
    for (const char *c = text; c < end; c++) {
        if (*c == ')') close_paren = c;
    }
    if (!close_paren || close_paren + 4 >= end) return -1;
    const char *next = close_paren + 2;
    entry->pid = pid;
    entry->zombie = *next == 'Z' || *next == 'X';
    entry->parent = parse_number(next + 1, end, &next);
    entry->group = parse_number(next, end, &next);
    entry->marked = 0;
    return 0;
}

static void scan_processes(void) {
    process_count = 0;
    int proc = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (proc < 0) return;
    char buffer[4096] __attribute__((aligned(8)));
    for (;;) {
        long count = syscall(SYS_getdents64, proc, buffer, sizeof buffer);
        if (count <= 0) break;
        for (long offset = 0; offset < count;) {
            struct directory_entry *entry = (struct directory_entry *)(buffer + offset);
            offset += entry->length;
            int pid = 0;
            const char *name = entry->name;
            if (*name < '1' || *name > '9') continue;
            for (; *name >= '0' && *name <= '9'; name++) pid = pid * 10 + (*name - '0');
            if (*name || process_count == PROCESS_TABLE_SIZE) continue;
            if (read_process(pid, &process_table[process_count]) == 0) process_count++;
        }
    }
    close(proc);
}

// A set of pids, open addressing: which processes are the command's.
#define MARKED_SET_SIZE 16384
static int marked_set[MARKED_SET_SIZE];

static int marked_slot(int pid) {
    unsigned slot = ((unsigned)pid * 2654435761u) % MARKED_SET_SIZE;
    for (unsigned probe = 0; probe < MARKED_SET_SIZE; probe++) {
        unsigned at = (slot + probe) % MARKED_SET_SIZE;
        if (marked_set[at] == pid || marked_set[at] == 0) return (int)at;
    }
    return -1;
}

static int is_marked(int pid) {
    if (pid <= 0) return 0;
    int slot = marked_slot(pid);
    return slot >= 0 && marked_set[slot] == pid;
}

static void mark(struct process_entry *entry, int *marked_count) {
    if (entry->pid <= 0) return;
    int slot = marked_slot(entry->pid);
    // A full set (a fork bomb): the rest are still killed, by group and as they are reparented.
    if (slot < 0 || *marked_count >= MARKED_SET_SIZE / 2) return;
    marked_set[slot] = entry->pid;
    entry->marked = 1;
    (*marked_count)++;
}

struct file_identity {
    unsigned long long device;
    unsigned long long inode;
};

// Whether `pid` holds one of `files` open (a descriptor of it, as /proc/PID/fd shows them).
static int holds_open(int pid, const struct file_identity *files, int file_count) {
    if (file_count == 0) return 0;
    char path[64];
    number_path(path, "/proc/", pid, "/fd");
    int descriptors = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (descriptors < 0) return 0;
    char buffer[2048] __attribute__((aligned(8)));
    int found = 0;
    for (;;) {
        long count = syscall(SYS_getdents64, descriptors, buffer, sizeof buffer);
        if (count <= 0 || found) break;
        for (long offset = 0; offset < count && !found;) {
            struct directory_entry *entry = (struct directory_entry *)(buffer + offset);
            offset += entry->length;
            if (entry->name[0] == '.') continue;
            struct stat status;
            if (fstatat(descriptors, entry->name, &status, 0) != 0) continue;
            for (int index = 0; index < file_count; index++) {
                if ((unsigned long long)status.st_dev == files[index].device && (unsigned long long)status.st_ino == files[index].inode) {
                    found = 1;
                }
            }
        }
    }
    close(descriptors);
    return found;
}

static void process_name(int pid, char name[16]) {
    char path[64];
    number_path(path, "/proc/", pid, "/comm");
    memset(name, 0, 16);
    int descriptor = open(path, O_RDONLY | O_CLOEXEC);
    if (descriptor < 0) return;
    ssize_t count = read_all(descriptor, name, 15);
    close(descriptor);
    if (count > 0 && name[count - 1] == '\n') name[count - 1] = 0;
}

// The command's processes still running now that its shell has ended: every descendant of this
// supervisor but the shell, and every member of its group; which of them hold a watched file open.
static void find_leftovers(
    int shell, char *const watched[], unsigned long long device, unsigned long long inode, struct importbench_command_result *result
) {
    struct file_identity files[8];
    int file_count = 0;
    if (device != 0 || inode != 0) files[file_count++] = (struct file_identity){device, inode};
    for (int index = 0; watched && watched[index] && file_count < 8; index++) {
        struct stat status;
        if (stat(watched[index], &status) == 0) {
            files[file_count++] = (struct file_identity){(unsigned long long)status.st_dev, (unsigned long long)status.st_ino};
        }
    }
    scan_processes();
    memset(marked_set, 0, sizeof marked_set);
    int self = getpid(), marked_count = 0;
    for (int index = 0; index < process_count; index++) {
        struct process_entry *entry = &process_table[index];
        if (entry->pid != shell && (entry->parent == self || entry->group == shell)) mark(entry, &marked_count);
    }
    for (int changed = 1; changed;) {
        changed = 0;
        for (int index = 0; index < process_count; index++) {
            struct process_entry *entry = &process_table[index];
            if (!entry->marked && entry->pid != shell && is_marked(entry->parent)) {
                int before = marked_count;
                mark(entry, &marked_count);
                changed |= marked_count != before;
            }
        }
    }
    // Those holding a watched file first: they are what a message must name.
    for (int pass = 0; pass < 2; pass++) {
        for (int index = 0; index < process_count; index++) {
            struct process_entry *entry = &process_table[index];
            if (!entry->marked || entry->zombie) continue;
            int held = holds_open(entry->pid, files, file_count);
            if (held != (pass == 0)) continue;
            result->left_count++;
            if (result->left_listed < IMPORTBENCH_LEFTOVERS_LISTED) {
                struct importbench_command_leftover *left = &result->left[result->left_listed++];
                left->pid = entry->pid;
                left->held_store = held;
                process_name(entry->pid, left->name);
            }
        }
    }
}

// Kills every child of this supervisor (but `spared`, unless 0) until none is left: a killed
// process's own children become this subreaper's and are killed in the next round. Gives up after
// five seconds (a process stuck in the kernel cannot be killed at all).
static void kill_children(int spared) {
    int self = getpid();
    long long deadline = now_nanoseconds() + 5000000000LL;
    for (;;) {
        scan_processes();
        int left = 0;
        for (int index = 0; index < process_count; index++) {
            struct process_entry *entry = &process_table[index];
            if (entry->parent != self || entry->pid == spared) continue;
            left++;
            kill(entry->pid, SIGKILL);
            while (waitpid(entry->pid, NULL, WNOHANG) < 0 && errno == EINTR) {}
        }
        if (left == 0 || now_nanoseconds() > deadline) return;
        pause_briefly();
    }
}
#else
static void find_leftovers(
    int shell, char *const watched[], unsigned long long device, unsigned long long inode, struct importbench_command_result *result
) {
    (void)shell, (void)watched, (void)device, (void)inode, (void)result;
}

static void kill_children(int spared) {
    int status;
    pid_t reaped;
    while ((reaped = waitpid(-1, &status, WNOHANG)) > 0 && reaped != spared) {}
}
#endif

// MARK: The supervisor

static volatile sig_atomic_t supervised_group;
static volatile sig_atomic_t supervised_bench;

// A signal from bench, to pass on to the command's group.
static void relay_to_group(int number, siginfo_t *info, void *context) {
    (void)number, (void)context;
    if (info->si_pid != supervised_bench) return;
#if defined(__linux__)
    int signal = info->si_value.sival_int;
#else
    int signal = SIGTERM;
#endif
    if (signal > 0 && supervised_group > 0) kill(-supervised_group, signal);
}

// The parent-death signal (SIGTERM), or a SIGTERM from anyone: only bench's death ends everything.
static void bench_died(int number) {
    (void)number;
    if (getppid() == supervised_bench) return;
    if (supervised_group > 0) kill(-supervised_group, SIGKILL);
    kill_children(0);
    _exit(0);
}

static void start_shell(const char *shell, const char *command_line, char *const environment[], int output, int error, int progress) {
    setpgid(0, 0);
    default_signals();
    int input = open("/dev/null", O_RDONLY);
    if (input >= 0 && input != STDIN_FILENO) {
        dup2(input, STDIN_FILENO);
        close(input);
    }
    if (output >= 0) dup2(output, STDOUT_FILENO);
    if (error >= 0) dup2(error, STDERR_FILENO);
    // The progress pipe at descriptor 3 (dup2 leaves the copy open across exec); then nothing
    // else of bench's from 4 on.
    if (progress >= 0 && progress != IMPORTBENCH_PROGRESS_FD) dup2(progress, IMPORTBENCH_PROGRESS_FD);
    if (progress == IMPORTBENCH_PROGRESS_FD) fcntl(progress, F_SETFD, 0);
    close_from(progress >= 0 ? IMPORTBENCH_PROGRESS_FD + 1 : IMPORTBENCH_PROGRESS_FD);
    unblock_signals();
    char *const arguments[] = {(char *)"sh", (char *)"-c", (char *)command_line, NULL};
    execve(shell, arguments, environment);
    _exit(127);
}

// The supervisor: in a group of its own (a signal to bench's group does not reach it; bench passes
// its stopping signals on), holding none of bench's descriptors once the shell is started.
static void supervise(
    const char *shell, const char *command_line, char *const environment[], int output, int error, int progress, char *const watched[],
    unsigned long long device, unsigned long long inode, int bench, int report
) {
    setpgid(0, 0);
    default_signals();
#if defined(__linux__)
    prctl(PR_SET_CHILD_SUBREAPER, 1UL, 0UL, 0UL, 0UL);
    prctl(PR_SET_PDEATHSIG, (unsigned long)SIGTERM, 0UL, 0UL, 0UL);
#endif
    long long started = now_nanoseconds();
    pid_t child = fork();
    if (child == 0) start_shell(shell, command_line, environment, output, error, progress);
    if (child < 0) {
        int failure = -errno;
        write_all(report, &failure, sizeof failure);
        _exit(0);
    }
    // Both sides set the group, so it exists before either goes on (the classic race).
    setpgid(child, child);
    supervised_group = child;
    supervised_bench = bench;
    write_all(report, &child, sizeof child);
    // Only the report pipe is kept, at descriptor 0.
    if (report != 0) dup2(report, 0);
    close_from(1);
    report = 0;

    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = bench_died;
    sigaction(SIGTERM, &action, NULL);
    action.sa_handler = SIG_IGN;
    // The terminal's signals: bench passes them on itself. A write to a bench gone: nothing to do.
    int ignored[] = {SIGINT, SIGQUIT, SIGHUP, SIGTSTP, SIGPIPE};
    for (unsigned index = 0; index < sizeof ignored / sizeof ignored[0]; index++) sigaction(ignored[index], &action, NULL);
    memset(&action, 0, sizeof action);
    action.sa_sigaction = relay_to_group;
    action.sa_flags = SA_SIGINFO | SA_RESTART;
    sigaction(RELAY_SIGNAL, &action, NULL);
    unblock_signals();
    if (getppid() != bench) bench_died(SIGTERM);

    // The shell's end, left unreaped: its pid, and so its group's id, stays its own until the
    // group is killed below, so no other process can be hit by that kill.
    siginfo_t info;
    while (waitid(P_PID, (id_t)child, &info, WEXITED | WNOWAIT) < 0 && errno == EINTR) {}
    struct importbench_command_result result;
    memset(&result, 0, sizeof result);
    result.wall_nanoseconds = now_nanoseconds() - started;
    find_leftovers(child, watched, device, inode, &result);
    kill(-child, SIGKILL);
    kill_children(child);
    // Nothing is relayed, and bench's death kills nothing, once the shell is reaped.
    sigset_t stopping;
    sigemptyset(&stopping);
    sigaddset(&stopping, RELAY_SIGNAL);
    sigaddset(&stopping, SIGTERM);
    sigprocmask(SIG_BLOCK, &stopping, NULL);
    struct rusage usage;
    memset(&usage, 0, sizeof usage);
    int status = 0;
    while (wait4(child, &status, 0, &usage) < 0 && errno == EINTR) {}
    result.status = status;
    result.user_microseconds = (long long)usage.ru_utime.tv_sec * 1000000LL + usage.ru_utime.tv_usec;
    result.system_microseconds = (long long)usage.ru_stime.tv_sec * 1000000LL + usage.ru_stime.tv_usec;
    result.peak_resident_kilobytes = usage.ru_maxrss;
    write_all(report, &result, sizeof result);
    _exit(0);
}

int importbench_command_spawn(
    const char *shell, const char *command_line, char *const environment[], int output, int error, int progress,
    char *const watched[], unsigned long long watched_device, unsigned long long watched_inode, struct importbench_command *command
) {
    int report[2];
    if (pipe(report) != 0) return errno;
    // Neither end leaks into another child bench starts meanwhile.
    fcntl(report[0], F_SETFD, FD_CLOEXEC);
    fcntl(report[1], F_SETFD, FD_CLOEXEC);
    int bench = getpid();
    // No handler of bench's may run in a child between fork and its reset: every signal blocked
    // around the fork (a stopping signal waits, then reaches bench once the mask is restored, and
    // is relayed to the supervisor, which handles it once it is ready).
    sigset_t all, before;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &before);
    pid_t supervisor = fork();
    if (supervisor == 0) {
        close(report[0]);
        supervise(shell, command_line, environment, output, error, progress, watched, watched_device, watched_inode, bench, report[1]);
    }
    int failure = supervisor < 0 ? errno : 0;
    if (supervisor > 0) atomic_store(&running_supervisor, supervisor);
    pthread_sigmask(SIG_SETMASK, &before, NULL);
    close(report[1]);
    if (failure) {
        close(report[0]);
        return failure;
    }
    int pid = 0;
    if (read_all(report[0], &pid, sizeof pid) != (ssize_t)sizeof pid || pid <= 0) {
        failure = pid < 0 ? -pid : ECHILD;
        int expected = supervisor;
        atomic_compare_exchange_strong(&running_supervisor, &expected, 0);
        close(report[0]);
        while (waitpid(supervisor, NULL, 0) < 0 && errno == EINTR) {}
        return failure;
    }
    command->pid = pid;
    command->supervisor = supervisor;
    command->result = report[0];
    return 0;
}

int importbench_command_receive(const struct importbench_command *command, struct importbench_command_result *result) {
    memset(result, 0, sizeof *result);
    if (read_all(command->result, result, sizeof *result) != (ssize_t)sizeof *result) {
        // The supervisor was killed from outside before it reported (its own death cannot kill the
        // group): the group is killed from here.
        kill(-command->pid, SIGKILL);
        errno = ECHILD;
        return -1;
    }
    return 0;
}

void importbench_command_release(struct importbench_command *command) {
    int expected = command->supervisor;
    atomic_compare_exchange_strong(&running_supervisor, &expected, 0);
    if (command->result >= 0) close(command->result);
    command->result = -1;
    if (command->supervisor > 0) {
        while (waitpid(command->supervisor, NULL, 0) < 0 && errno == EINTR) {}
    }
    command->supervisor = 0;
}

int importbench_keep_tail(int descriptor, long long kept, long long *punched) {
#if defined(__linux__) && defined(FALLOC_FL_PUNCH_HOLE)
    struct stat status;
    if (fstat(descriptor, &status) != 0) return -1;
    long long end = ((long long)status.st_size - kept) & ~4095LL;
    if (end - *punched < kept) return 0;
    if (fallocate(descriptor, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0, end) != 0) return -1;
    *punched = end;
    return 0;
#else
    (void)descriptor, (void)kept, (void)punched;
    errno = ENOTSUP;
    return -1;
#endif
}

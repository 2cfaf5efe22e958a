// A user's command run as a strategy (`bench run --command`): started in a process group of its
// own, with a watcher that kills the whole group if bench dies first, however it dies. Written in C
// because what runs between fork and exec must be async-signal-safe, which Swift cannot promise.
#include "CProcess.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/wait.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__linux__)
#include <sys/prctl.h>
#endif

// The group of the command running now (0: none), for the signal handler that passes signals on.
static atomic_int running_group;

void importbench_command_group_signal(int signal) {
    int group = atomic_load(&running_group);
    if (group > 0) kill(-group, signal);
}

void importbench_command_group_set(int group) { atomic_store(&running_group, group); }

// In a forked child, whose signals the parent blocked around the fork: every signal back to its
// default action, then unblocked, as a new program expects (no handler of bench's can run here).
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
    long limit = sysconf(_SC_OPEN_MAX);
    if (limit < 0 || limit > 65536) limit = 65536;
    for (int descriptor = first; descriptor < limit; descriptor++) close(descriptor);
}

static volatile sig_atomic_t watched_group;

static volatile sig_atomic_t watched_bench;

// The parent-death signal, or a SIGTERM from anyone: only bench's death kills the command's group.
static void kill_watched_group(int signal) {
    (void)signal;
    if (getppid() == watched_bench) return;
    if (watched_group > 0) kill(-watched_group, SIGKILL);
    _exit(0);
}

// The watcher: waits for bench's death (SIGTERM from the kernel) and kills the command's group.
// It holds none of bench's descriptors and is in a group of its own, so a signal to bench's group
// does not reach it; bench kills it with SIGKILL once the command has ended.
static void watch(pid_t group, pid_t bench) {
    setpgid(0, 0);
    default_signals();
    close_from(0);
    watched_group = group;
    watched_bench = bench;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = kill_watched_group;
    sigaction(SIGTERM, &action, NULL);
    // The terminal's signals reach bench's whole group, this watcher included: bench passes them
    // on to the command itself; the watcher stays, for bench's death.
    action.sa_handler = SIG_IGN;
    int terminal[] = {SIGINT, SIGQUIT, SIGHUP, SIGTSTP};
    for (unsigned index = 0; index < sizeof terminal / sizeof terminal[0]; index++) sigaction(terminal[index], &action, NULL);
#if defined(__linux__)
    prctl(PR_SET_PDEATHSIG, (unsigned long)SIGTERM, 0UL, 0UL, 0UL);
#endif
    unblock_signals();
    if (getppid() != bench) kill_watched_group(SIGTERM);
    for (;;) pause();
}

int importbench_command_spawn(
    const char *shell, const char *command, char *const environment[], int output, int error, int progress, int *command_pid,
    int *watcher_pid
) {
    pid_t bench = getpid();
    // No handler of bench's may run in a child between fork and its reset: every signal blocked
    // around the forks (a stopping signal waits, then reaches bench once the mask is restored).
    sigset_t all, before;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &before);
    pid_t child = fork();
    if (child < 0) {
        int failure = errno;
        pthread_sigmask(SIG_SETMASK, &before, NULL);
        return failure;
    }
    if (child == 0) {
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
        char *const arguments[] = {(char *)"sh", (char *)"-c", (char *)command, NULL};
        execve(shell, arguments, environment);
        _exit(127);
    }
    // Both sides set the group, so it exists before either goes on (the classic race).
    setpgid(child, child);
    pid_t watcher = fork();
    if (watcher == 0) watch(child, bench);
    int failure = watcher < 0 ? errno : 0;
    if (watcher < 0) {
        // Unwatched, the command could outlive bench: it does not run at all.
        kill(-child, SIGKILL);
        while (waitpid(child, NULL, 0) < 0 && errno == EINTR) {}
    } else {
        importbench_command_group_set(child);
    }
    pthread_sigmask(SIG_SETMASK, &before, NULL);
    if (failure) return failure;
    *command_pid = child;
    *watcher_pid = watcher;
    return 0;
}

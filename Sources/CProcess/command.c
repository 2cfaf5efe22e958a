// A user's command run as a strategy (`bench run --command`): started in a process group of its
// own, with a watcher that kills the whole group if bench dies first, however it dies. Written in C
// because what runs between fork and exec must be async-signal-safe, which Swift cannot promise.
#include "CProcess.h"

#include <errno.h>
#include <fcntl.h>
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

// In a forked child: every signal back to its default action and unblocked, as a new program expects.
static void default_signals(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = SIG_DFL;
    for (int number = 1; number < NSIG; number++) {
        if (number != SIGKILL && number != SIGSTOP) sigaction(number, &action, NULL);
    }
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
}

static volatile sig_atomic_t watched_group;

static void kill_watched_group(int signal) {
    (void)signal;
    if (watched_group > 0) kill(-watched_group, SIGKILL);
    _exit(0);
}

// The watcher: waits for bench's death (SIGTERM from the kernel) and kills the command's group.
// bench kills it with SIGKILL once the command has ended.
static void watch(pid_t group, pid_t bench) {
    default_signals();
    watched_group = group;
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
    if (getppid() != bench) kill_watched_group(SIGTERM);
    for (;;) pause();
}

int importbench_command_spawn(
    const char *shell, const char *command, char *const environment[], int output, int error, int progress, int *command_pid,
    int *watcher_pid
) {
    pid_t bench = getpid();
    pid_t child = fork();
    if (child < 0) return errno;
    if (child == 0) {
        setpgid(0, 0);
        default_signals();
        if (output >= 0) dup2(output, STDOUT_FILENO);
        if (error >= 0) dup2(error, STDERR_FILENO);
        // The progress pipe at descriptor 3, open across exec (dup2 clears close-on-exec; a pipe
        // already at 3 has it cleared by hand).
        if (progress >= 0 && progress != IMPORTBENCH_PROGRESS_FD) dup2(progress, IMPORTBENCH_PROGRESS_FD);
        if (progress == IMPORTBENCH_PROGRESS_FD) fcntl(progress, F_SETFD, 0);
        int input = open("/dev/null", O_RDONLY);
        if (input >= 0) dup2(input, STDIN_FILENO);
        char *const arguments[] = {(char *)"sh", (char *)"-c", (char *)command, NULL};
        execve(shell, arguments, environment);
        _exit(127);
    }
    // Both sides set the group, so it exists before either goes on (the classic race).
    setpgid(child, child);
    importbench_command_group_set(child);
    pid_t watcher = fork();
    if (watcher == 0) watch(child, bench);
    *command_pid = child;
    *watcher_pid = watcher > 0 ? watcher : 0;
    return 0;
}

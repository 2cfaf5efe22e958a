#ifndef IMPORTBENCH_CPROCESS_H
#define IMPORTBENCH_CPROCESS_H

/// Asks the kernel to send `signal` to this process when its parent dies (Linux's
/// PR_SET_PDEATHSIG); 0 on success, -1 where unsupported. Here because prctl is variadic, which
/// Swift cannot call. Defined in process.c.
int importbench_signal_on_parent_death(int signal);

/// Names the calling thread as `ps -L` and /proc show it (Linux's PR_SET_NAME, at most 15 bytes
/// kept); 0 on success, -1 where unsupported. Defined in process.c.
int importbench_name_this_thread(const char *name);

/// The descriptor a command finds its progress pipe at (`BENCH_PROGRESS_FD`).
#define IMPORTBENCH_PROGRESS_FD 3

/// Starts `shell -c command` with `environment` in a process group of its own (standard input from
/// /dev/null, output and error to the given descriptors, -1 to inherit; `progress`, if not -1, at
/// descriptor IMPORTBENCH_PROGRESS_FD), every signal at its default,
/// and a watcher process that kills the whole group if this process dies first, however it dies.
/// Returns 0 and the two pids, or an errno. Kill the watcher (SIGKILL) once the command has ended.
/// Defined in command.c.
int importbench_command_spawn(
    const char *shell, const char *command, char *const environment[], int output, int error, int progress, int *command_pid,
    int *watcher_pid);

/// Sends `signal` to the group of the command running now, if one is: async-signal-safe, for the
/// handler of bench's stopping signals.
void importbench_command_group_signal(int signal);

/// Records the group of the command running now (0 once it has ended).
void importbench_command_group_set(int group);

#endif

#ifndef IMPORTBENCH_CPROCESS_H
#define IMPORTBENCH_CPROCESS_H

#include <stddef.h>

/// Asks the kernel to send `signal` to this process when its parent dies (Linux's
/// PR_SET_PDEATHSIG); 0 on success, -1 where unsupported. Here because prctl is variadic, which
/// Swift cannot call. Defined in process.c.
int importbench_signal_on_parent_death(int signal);

/// Names the calling thread as `ps -L` and /proc show it (Linux's PR_SET_NAME, at most 15 bytes
/// kept); 0 on success, -1 where unsupported. Defined in process.c.
int importbench_name_this_thread(const char *name);

// MARK: A command run as a strategy (command.c)

/// The descriptor a command finds its progress pipe at (`BENCH_PROGRESS_FD`).
#define IMPORTBENCH_PROGRESS_FD 3

/// How many of the processes a command left running a result names (all are counted and killed).
#define IMPORTBENCH_LEFTOVERS_LISTED 8

/// A running command: its shell (whose pid is its process group's id), the supervisor that is its
/// parent, and the pipe the supervisor reports on.
struct importbench_command {
    int pid;
    int supervisor;
    int result;
};

/// A process the command left running when its shell ended, which the supervisor then killed.
struct importbench_command_leftover {
    int pid;
    /// 1 when it held one of the watched files open (the store, its -wal, -shm or -journal).
    int held_store;
    /// Its name as /proc/PID/comm gives it (at most 15 bytes), NUL-terminated.
    char name[16];
};

/// How a command ended, as its supervisor saw it.
struct importbench_command_result {
    /// The shell's wait status (exit status or signal, as waitpid gives them).
    int status;
    /// Processes of the command still running when its shell ended: all of them counted, the
    /// first IMPORTBENCH_LEFTOVERS_LISTED (those holding the store first) in `left`.
    int left_count;
    int left_listed;
    int padding;
    /// From just before the shell was forked to its end.
    long long wall_nanoseconds;
    long long user_microseconds;
    long long system_microseconds;
    /// The largest resident set of the shell or of a descendant it waited for (ru_maxrss).
    long long peak_resident_kilobytes;
    struct importbench_command_leftover left[IMPORTBENCH_LEFTOVERS_LISTED];
};

/// Starts `shell -c command` with `environment` in a process group of its own (standard input from
/// /dev/null, output and error to the given descriptors, -1 to inherit; `progress`, if not -1, at
/// descriptor IMPORTBENCH_PROGRESS_FD), every signal at its default, under a supervisor process:
/// its parent, the child subreaper of everything it starts (Linux's PR_SET_CHILD_SUBREAPER), so a
/// process that leaves the group (`setsid`, a double fork) is still its descendant. When the shell
/// ends, the supervisor notes which of the command's processes still run and which of them hold
/// one of `watched` (NULL-terminated paths, stated then) or the file `watched_device` and
/// `watched_inode` name (the store as it was before the command; 0 and 0 for none) open, kills
/// them all, and reports. If this process dies first, however it dies, the supervisor kills them
/// all too. Returns 0 and fills `command`, or an errno. Then `importbench_command_receive` (once),
/// then `importbench_command_release`.
int importbench_command_spawn(
    const char *shell, const char *command_line, char *const environment[], int output, int error, int progress,
    char *const watched[], unsigned long long watched_device, unsigned long long watched_inode, struct importbench_command *command);

/// Waits for the command's end and reads what its supervisor reports: 0, or -1 when the supervisor
/// died without reporting (errno). Signals may still be relayed until `importbench_command_release`.
int importbench_command_receive(const struct importbench_command *command, struct importbench_command_result *result);

/// Reaps the supervisor, which has reported: no signal can be relayed to the command after this.
void importbench_command_release(struct importbench_command *command);

/// Passes `signal` on to the command's whole group, through its supervisor, while it runs.
/// Async-signal-safe.
void importbench_command_relay(const struct importbench_command *command, int signal);

/// Passes `signal` on to the group of the command running now, if one is: async-signal-safe, for
/// the handler of bench's stopping signals.
void importbench_command_group_signal(int signal);

/// Keeps the file open at `descriptor` to its last `kept` bytes on disk: the bytes before are
/// turned into a hole (FALLOC_FL_PUNCH_HOLE; the size and the offsets stay), in whole 4 KiB
/// blocks, once more than `kept` bytes more than `*punched` have been written. `*punched` is
/// where the hole ends. Returns 0, or -1 where the file system cannot punch holes (errno).
int importbench_keep_tail(int descriptor, long long kept, long long *punched);

// MARK: Progress lines (progress.c)

/// The longest progress line read (`occurrences N` needs 31 bytes); a longer one ends the reading.
#define IMPORTBENCH_PROGRESS_LINE_LIMIT 1024

/// The line being read from a command's progress pipe.
struct importbench_progress_line {
    unsigned char bytes[IMPORTBENCH_PROGRESS_LINE_LIMIT];
    size_t length;
    /// Set once a line longer than the limit was met: nothing more is read as progress.
    int overlong;
};

/// Reads `count` more bytes of progress, lines ending at `\n` or `\r`, in one pass over them.
/// Returns N of the last complete `occurrences N` line among them (N >= 0), or -1 when they end
/// none. Other lines are ignored.
long long importbench_progress_feed(struct importbench_progress_line *line, const unsigned char *bytes, size_t count);

// MARK: Temporary directories removed on a quick exit (directories.c)

/// Records a run's temporary directory, just made, by its device and inode (or, if it cannot be
/// stated, by `marker`, a file it will hold), so that a stop that cannot wait for the usual
/// clean-up (the second stopping signal) still removes it, even halfway through that clean-up. 0,
/// or -1 when the table is full or the path too long (the directory is then removed only the usual way).
int importbench_directory_register(const char *path, const char *marker);

/// Forgets a directory recorded by `importbench_directory_register` (removed the usual way).
void importbench_directory_unregister(const char *path);

/// Removes every recorded directory still at its path (the same device and inode), with everything
/// in it, never following a symbolic link. Async-signal-safe: for the handler of a second stopping signal.
void importbench_directories_remove(void);

/// Removes the one recorded directory at `path` as `importbench_directories_remove` does: 0, or -1
/// when no directory is recorded at `path` or another is there now (left alone). Async-signal-safe.
int importbench_directory_remove(const char *path);

#endif

// The run's temporary directories, recorded so that the second stopping signal, which quits at
// once, still removes them: a signal handler may call no malloc and take no lock, so the table is
// fixed and the removal is system calls alone (openat, getdents64, unlinkat).
#define _GNU_SOURCE
#include "CProcess.h"
#include "directory_entry.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define DIRECTORY_SLOTS 32
#define DIRECTORY_PATH_LIMIT 1024
#define MARKER_LIMIT 64

enum { slot_free, slot_writing, slot_ready };

static atomic_int slot_state[DIRECTORY_SLOTS];
static char slot_path[DIRECTORY_SLOTS][DIRECTORY_PATH_LIMIT];
static char slot_marker[DIRECTORY_SLOTS][MARKER_LIMIT];
// The directory's device and inode when it was recorded (both 0 if it could not be stated then):
// what tells it apart from anything put at its path since, whatever is left in it.
static dev_t slot_device[DIRECTORY_SLOTS];
static ino_t slot_inode[DIRECTORY_SLOTS];

int importbench_directory_register(const char *path, const char *marker) {
    size_t length = strlen(path), marker_length = strlen(marker);
    if (length == 0 || length >= DIRECTORY_PATH_LIMIT || marker_length == 0 || marker_length >= MARKER_LIMIT) return -1;
    if (strchr(marker, '/')) return -1;
    for (int slot = 0; slot < DIRECTORY_SLOTS; slot++) {
        int expected = slot_free;
        if (!atomic_compare_exchange_strong(&slot_state[slot], &expected, slot_writing)) continue;
        memcpy(slot_path[slot], path, length + 1);
        memcpy(slot_marker[slot], marker, marker_length + 1);
        struct stat status;
        int known = lstat(path, &status) == 0 && S_ISDIR(status.st_mode);
        slot_device[slot] = known ? status.st_dev : 0;
        slot_inode[slot] = known ? status.st_ino : 0;
        atomic_store(&slot_state[slot], slot_ready);
        return 0;
    }
    return -1;
}

void importbench_directory_unregister(const char *path) {
    for (int slot = 0; slot < DIRECTORY_SLOTS; slot++) {
        if (atomic_load(&slot_state[slot]) != slot_ready || strcmp(slot_path[slot], path) != 0) continue;
        int expected = slot_ready;
        if (atomic_compare_exchange_strong(&slot_state[slot], &expected, slot_writing)) {
            atomic_store(&slot_state[slot], slot_free);
            return;
        }
    }
}

#if defined(__linux__)
// Deeper than any directory a run makes; what a command nests deeper in its TMPDIR stays.
#define REMOVAL_DEPTH 24

// Everything in the open directory, depth first; a symbolic link is removed, never followed.
// Entries removed while it is read can make getdents skip others: it reads again until a pass
// removes nothing.
static void empty_directory(int directory, int depth) {
    char buffer[1024] __attribute__((aligned(8)));
    for (int pass = 0; pass < 64; pass++) {
        lseek(directory, 0, SEEK_SET);
        int removed = 0;
        for (;;) {
            long count = syscall(SYS_getdents64, directory, buffer, sizeof buffer);
            if (count <= 0) break;
            for (long offset = 0; offset < count;) {
                struct directory_entry *entry = (struct directory_entry *)(buffer + offset);
                offset += entry->length;
                const char *name = entry->name;
                if (name[0] == '.' && (name[1] == 0 || (name[1] == '.' && name[2] == 0))) continue;
                if (unlinkat(directory, name, 0) == 0) {
                    removed++;
                    continue;
                }
                if (errno != EISDIR && errno != EPERM) continue;
                if (depth < REMOVAL_DEPTH) {
                    int inner = openat(directory, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                    if (inner >= 0) {
                        empty_directory(inner, depth + 1);
                        close(inner);
                    }
                }
                if (unlinkat(directory, name, AT_REMOVEDIR) == 0) removed++;
            }
        }
        if (removed == 0) return;
    }
}

// Removes the directory recorded in `slot` if it is still at its path: 0, or -1 when it is not.
static int remove_slot(int slot) {
    int directory = open(slot_path[slot], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (directory < 0) return -1;
    // Only the directory recorded is the run's: the same device and inode (a stop halfway through
    // its usual removal may have taken the marker already), or, if it could not be stated then,
    // one that holds its marker.
    struct stat status;
    int ours;
    if (slot_device[slot] != 0 || slot_inode[slot] != 0) {
        ours = fstat(directory, &status) == 0 && status.st_dev == slot_device[slot] && status.st_ino == slot_inode[slot];
    } else {
        ours = fstatat(directory, slot_marker[slot], &status, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(status.st_mode);
    }
    if (ours) empty_directory(directory, 0);
    close(directory);
    if (!ours) return -1;
    return rmdir(slot_path[slot]) == 0 ? 0 : -1;
}

void importbench_directories_remove(void) {
    for (int slot = 0; slot < DIRECTORY_SLOTS; slot++) {
        if (atomic_load(&slot_state[slot]) == slot_ready) remove_slot(slot);
    }
}

int importbench_directory_remove(const char *path) {
    for (int slot = 0; slot < DIRECTORY_SLOTS; slot++) {
        if (atomic_load(&slot_state[slot]) == slot_ready && strcmp(slot_path[slot], path) == 0) return remove_slot(slot);
    }
    return -1;
}
#else
void importbench_directories_remove(void) {}

int importbench_directory_remove(const char *path) {
    (void)path;
    return -1;
}
#endif

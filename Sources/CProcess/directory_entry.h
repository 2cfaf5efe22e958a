// What getdents64 returns, one entry after another (Linux's struct linux_dirent64, which glibc
// does not declare): read directly, because a signal handler and a forked child of a threaded
// process may not call opendir/readdir, which allocate. Private to CProcess.
#ifndef IMPORTBENCH_DIRECTORY_ENTRY_H
#define IMPORTBENCH_DIRECTORY_ENTRY_H

#if defined(__linux__)
struct directory_entry {
    unsigned long long inode;
    long long offset;
    unsigned short length;
    unsigned char type;
    char name[];
};
#endif

#endif

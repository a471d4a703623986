#ifndef COURTSIDE_CLINUX_SHIM_H
#define COURTSIDE_CLINUX_SHIM_H
// Glibc's Swift module map covers neither epoll, eventfd nor signalfd, and accept4 needs _GNU_SOURCE,
// which the prebuilt Glibc module was compiled without: so they are declared here.
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/resource.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <limits.h>
#include <pthread.h>
#include <unistd.h>
extern int accept4(int sockfd, struct sockaddr *addr, socklen_t *addrlen, int flags);
// GNU extension (thread names show up in top -H and gdb); declared here for the same reason as accept4.
extern int pthread_setname_np(pthread_t thread, const char *name);

// sigset_t manipulation: sigemptyset/sigaddset are functions, but keeping the set handling next to
// signalfd in C avoids importing struct layouts that differ between libc versions.
static inline int clinux_block_signals_and_open_signalfd(const int *signals, int count, int *out_fd) {
    sigset_t set;
    sigemptyset(&set);
    for (int i = 0; i < count; i++) sigaddset(&set, signals[i]);
    int rc = pthread_sigmask(SIG_BLOCK, &set, NULL);
    if (rc != 0) return rc;
    int fd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
    if (fd < 0) return -1;
    *out_fd = fd;
    return 0;
}

// The signal number carried by one signalfd record; -1 when none is ready.
static inline int clinux_read_signalfd(int fd) {
    struct signalfd_siginfo info;
    long n = read(fd, &info, sizeof(info));
    if (n != (long)sizeof(info)) return -1;
    return (int)info.ssi_signo;
}
#endif

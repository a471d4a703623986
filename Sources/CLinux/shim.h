#ifndef COURTSIDE_CLINUX_SHIM_H
#define COURTSIDE_CLINUX_SHIM_H
// Glibc's Swift module map covers neither epoll nor eventfd, and accept4 needs _GNU_SOURCE,
// which the prebuilt Glibc module was compiled without: so they are declared here.
#include <sys/epoll.h>
#include <sys/eventfd.h>
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

// Unblocks one signal in the calling thread. A parent may start us with signals blocked (posix_spawn inherits the
// spawning thread's mask), and a blocked SIGTERM would stay pending forever instead of shutting the server down.
static inline int clinux_unblock_signal(int signal_number) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, signal_number);
    return pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}
#endif

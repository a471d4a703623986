#ifndef COURTSIDE_CLINUX_SHIM_H
#define COURTSIDE_CLINUX_SHIM_H
// Glibc's Swift module map covers neither epoll nor eventfd, and accept4 needs _GNU_SOURCE,
// which the prebuilt Glibc module was compiled without: so they are declared here.
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
extern int accept4(int sockfd, struct sockaddr *addr, socklen_t *addrlen, int flags);
#endif

// What batching the sends of a fan-out buys on this kernel, measured without any server around it: N loopback TCP
// connections (the "subscribers"), and M messages of S bytes each sent to every one of them, three ways:
//   send    one send(2) per connection per message: what a server's per-connection flush does at a game's rate
//           (one message per loop iteration, so one system call per subscriber per message);
//   uring   the same sends as io_uring SEND operations, queued for all connections and submitted with one
//           io_uring_enter per QUEUE_DEPTH of them (liburing): one system call per thousands of sends;
//   writev2 every second message, both queued for a connection go out in one writev(2): what gathering two
//           messages per connection (waiting one message's interval) would save.
// Rounds interleave the modes. Each message's sends are timed (CLOCK_MONOTONIC) and the process's CPU
// (getrusage: user + system) over them; the receivers are drained between messages, outside the timing. The TCP
// work (the loopback delivery into the peer's socket) is done in the sender's system call either way; what
// batching can save is the system call's entry and exit and the per-call overhead.
//
//   batched_writes [connections] [messages] [bytes] [rounds]     (defaults 5000 50 225 3)
//
// Prints one line per round and mode: nanoseconds of wall time and of CPU per delivered message, and system calls
// per delivered message. Exit status 1 if a send failed or came up short.
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

enum { QUEUE_DEPTH = 4096 };

static int *senders, *receivers;
static int count;
static char *payload;
static size_t size;
static char drain_buffer[1 << 16];

static int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int64_t cpu_ns(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return ((int64_t)usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000000000 +
           ((int64_t)usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1000;
}

static void fail(const char *what) {
    perror(what);
    exit(1);
}

// Reads everything the receivers hold, so no send ever meets a full window.
static void drain(void) {
    for (int i = 0; i < count; i++) {
        while (recv(receivers[i], drain_buffer, sizeof drain_buffer, MSG_DONTWAIT) > 0) {
        }
    }
}

static void connect_all(void) {
    int listener = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t length = sizeof address;
    if (listener < 0 || bind(listener, (struct sockaddr *)&address, sizeof address) != 0 ||
        listen(listener, 4096) != 0 || getsockname(listener, (struct sockaddr *)&address, &length) != 0)
        fail("listener");
    for (int i = 0; i < count; i++) {
        receivers[i] = socket(AF_INET, SOCK_STREAM, 0);
        if (receivers[i] < 0 || connect(receivers[i], (struct sockaddr *)&address, sizeof address) != 0)
            fail("connect (raise the open-file limit: 2 descriptors per connection)");
        senders[i] = accept(listener, NULL, NULL);
        if (senders[i] < 0) fail("accept");
        int one = 1;
        setsockopt(senders[i], IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        fcntl(senders[i], F_SETFL, O_NONBLOCK);
    }
    close(listener);
}

// One message to every connection with send(2). Returns the number of system calls.
static long send_each(void) {
    for (int i = 0; i < count; i++) {
        if (send(senders[i], payload, size, MSG_NOSIGNAL) != (ssize_t)size) fail("send");
    }
    return count;
}

// Two messages to every connection with one writev(2) each.
static long writev_pairs(void) {
    struct iovec vectors[2] = {{payload, size}, {payload, size}};
    for (int i = 0; i < count; i++) {
        if (writev(senders[i], vectors, 2) != (ssize_t)(2 * size)) fail("writev");
    }
    return count;
}

// One message to every connection as io_uring SEND operations, QUEUE_DEPTH per submission.
static long send_uring(struct io_uring *ring) {
    long calls = 0;
    int queued = 0, done = 0;
    while (done < count) {
        while (queued < count && queued - done < QUEUE_DEPTH) {
            struct io_uring_sqe *sqe = io_uring_get_sqe(ring);
            if (!sqe) break;
            io_uring_prep_send(sqe, senders[queued], payload, size, MSG_NOSIGNAL);
            queued++;
        }
        // Submits what was queued and waits for all of it in the same system call.
        int rc = io_uring_submit_and_wait(ring, (unsigned)(queued - done));
        calls++;
        if (rc < 0) {
            errno = -rc;
            fail("io_uring_submit_and_wait");
        }
        struct io_uring_cqe *cqe;
        unsigned head, seen = 0;
        io_uring_for_each_cqe(ring, head, cqe) {
            if (cqe->res != (int)size) {
                fprintf(stderr, "io_uring send: %d\n", cqe->res);
                exit(1);
            }
            seen++;
        }
        io_uring_cq_advance(ring, seen);
        done += (int)seen;
    }
    return calls;
}

int main(int argc, char **argv) {
    count = argc > 1 ? atoi(argv[1]) : 5000;
    int messages = argc > 2 ? atoi(argv[2]) : 50;
    size = argc > 3 ? (size_t)atoi(argv[3]) : 225;
    int rounds = argc > 4 ? atoi(argv[4]) : 3;
    if (count <= 0 || messages <= 1 || size == 0 || rounds <= 0) {
        fprintf(stderr, "usage: batched_writes [connections] [messages > 1] [bytes] [rounds]\n");
        return 2;
    }
    senders = calloc((size_t)count, sizeof *senders);
    receivers = calloc((size_t)count, sizeof *receivers);
    payload = malloc(size);
    memset(payload, 'x', size);
    connect_all();
    struct io_uring ring;
    int rc = io_uring_queue_init(QUEUE_DEPTH, &ring, 0);
    if (rc < 0) {
        errno = -rc;
        fail("io_uring_queue_init");
    }
    const char *modes[] = {"send", "uring", "writev2"};
    printf("%d connections, %d messages of %zu bytes, %d rounds\n", count, messages, size, rounds);
    printf("| round | mode | wall ns per delivery | CPU ns per delivery | system calls per delivery |\n");
    printf("|---:|---|---:|---:|---:|\n");
    for (int round = 1; round <= rounds; round++) {
        for (int mode = 0; mode < 3; mode++) {
            int64_t wall = 0, cpu = 0;
            long calls = 0, deliveries = 0;
            for (int m = 0; m < messages; m += mode == 2 ? 2 : 1) {
                int64_t w0 = now_ns(), c0 = cpu_ns();
                calls += mode == 0 ? send_each() : mode == 1 ? send_uring(&ring) : writev_pairs();
                wall += now_ns() - w0;
                cpu += cpu_ns() - c0;
                deliveries += mode == 2 ? 2L * count : count;
                drain();
            }
            printf("| %d | %s | %.0f | %.0f | %.4f |\n", round, modes[mode], (double)wall / deliveries,
                   (double)cpu / deliveries, (double)calls / deliveries);
            fflush(stdout);
        }
    }
    io_uring_queue_exit(&ring);
    return 0;
}

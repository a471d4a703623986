/*
 * Spectators for benchmarks/broadcaster_latency.py: many WebSocket clients (RFC 6455) in one epoll loop that read
 * every message and record, for each patch, the game, its seq and the CLOCK_MONOTONIC time it was read. Written in
 * C so that the clients, which share the machine's cores with the server, cost little per message and the latency
 * measured is mostly the server's.
 *
 * Usage: spectators PORT SOURCES FIRST_SOURCE PLAN OUT [deflate]
 *   PLAN: one connection per line, "GAME_INDEX PATH" (PATH like /ws/games/game-1).
 *   Connects every line from 127.0.0.(1 + (FIRST_SOURCE + i) % SOURCES), 256 handshakes at a time
 *   (SPECTATORS_IN_FLIGHT=N for another number), within 120 s;
 *   prints "ready CONNECTED FAILED DEFLATE_AGREED" on stdout; reads until stdin says anything or closes; writes the records to
 *   OUT (binary: int64 game, int64 seq, int64 nanoseconds, per patch) and prints
 *   "done RECORDS SNAPSHOTS OTHER CLOSED".
 * It answers pings (RFC 6455 §5.5.2). With "deflate" it offers permessage-deflate (RFC 7692, as browsers do:
 * `permessage-deflate; client_max_window_bits`) and inflates every compressed message (RSV1, §6.2) before reading
 * it, keeping the server's context between messages unless the server said server_no_context_takeover (§7.1.1.1).
 *
 * For benchmarks/handshakes.sh (both off unless set in the environment, so the lines above stay as they are):
 * - SPECTATORS_WAIT_FIRST=1: connecting also waits until every open client has read its first message (for
 *   `courtside serve`, the snapshot); set to anything (0 for a server that sends nothing first), "timing OPEN FIRST
 *   OPEN_NS FIRST_NS" comes before "ready": how many are open and have read a first message, and the nanoseconds
 *   from the first connect to the last 101 and to the last first message.
 * - SPECTATORS_RECONNECT=1: once ready, a client whose connection closes connects again (every 50 ms while refused),
 *   to its path with "?since=SEQ", SEQ the last seq it read (a snapshot's or a patch's); and stdin takes commands,
 *   one a line: "seq S SECONDS" waits (at most SECONDS) until every client is open and has read, on its current
 *   connection, a message at seq S or later, and prints "seq S IN_STEP OPEN RECONNECTS FROM_CLOSE_NS FROM_COMMAND_NS"
 *   (FROM_CLOSE_NS: from the first close seen to the last client in step; 0 when none closed). Any other line stops.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

enum { CONNECTING, UPGRADING, OPEN, CLOSED, WAITING };

typedef struct {
    int fd;
    int state;
    int64_t game;
    char *path;
    int64_t last_seq;      /* the last seq read on any connection, -1 before the first */
    int64_t connection_seq; /* the last seq read on the current connection, -1 before the first */
    int64_t retry_at;      /* WAITING: when to connect again */
    unsigned char *buffer;
    size_t used, capacity;
    z_stream *inflater; /* permessage-deflate agreed */
    int reset_each_message;
} Client;

static int offer_deflate;
static unsigned char *inflated;
static size_t inflated_capacity;

typedef struct {
    int64_t game, seq, nanoseconds;
} Record;

static Record *records;
static size_t record_count, record_capacity;
static long snapshots, others, closed_count, deflate_agreed;

static int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void die(const char *what) {
    perror(what);
    exit(1);
}

static void record(int64_t game, int64_t seq, int64_t t) {
    if (record_count == record_capacity) {
        record_capacity = record_capacity ? record_capacity * 2 : 1 << 16;
        records = realloc(records, record_capacity * sizeof(Record));
        if (!records) die("realloc");
    }
    records[record_count++] = (Record){game, seq, t};
}

/* A text message: a patch is recorded by its seq (the last "seq": in canonical JSON, where members are sorted and
 * "seq" follows "ops"); a snapshot is counted. */
static int64_t first_messages, last_first_message_ns;

static void message(Client *c, const unsigned char *p, size_t n, int64_t t) {
    if (c->connection_seq == -1 && c->state == OPEN) {
        first_messages++;
        last_first_message_ns = t;
    }
    if (c->connection_seq == -1) c->connection_seq = -2; /* a message, not yet a seq */
    size_t tail = n > 48 ? n - 48 : 0;
    if (memmem(p + tail, n - tail, "\"type\":\"patch\"", 14)) {
        const unsigned char *s = NULL, *q = p;
        while ((q = memmem(q, n - (size_t)(q - p), "\"seq\":", 6))) {
            s = q;
            q += 6;
        }
        if (!s) {
            others++;
            return;
        }
        int64_t seq = strtoll((const char *)s + 6, NULL, 10);
        record(c->game, seq, t);
        c->last_seq = c->connection_seq = seq;
    } else if (memmem(p + tail, n - tail, "\"type\":\"snapshot\"", 17)) {
        /* Members are sorted: the snapshot's own "seq" comes before "state" and anything nested in it. */
        const unsigned char *s = memmem(p, n, "\"seq\":", 6);
        if (s) c->last_seq = c->connection_seq = strtoll((const char *)s + 6, NULL, 10);
        snapshots++;
    } else {
        others++;
    }
}

/* RFC 7692 §7.2.2: append 00 00 ff ff to the compressed payload and inflate it. */
static void inflate_message(Client *c, unsigned char *payload, size_t n, int64_t t) {
    static unsigned char tail[4] = {0x00, 0x00, 0xff, 0xff};
    z_stream *z = c->inflater;
    size_t out = 0;
    for (int part = 0; part < 2; part++) {
        z->next_in = part == 0 ? payload : tail;
        z->avail_in = part == 0 ? (uInt)n : 4;
        while (z->avail_in > 0) {
            if (inflated_capacity - out < 65536) {
                inflated_capacity = inflated_capacity * 2 + 65536;
                inflated = realloc(inflated, inflated_capacity);
                if (!inflated) die("realloc");
            }
            z->next_out = inflated + out;
            z->avail_out = (uInt)(inflated_capacity - out);
            int status = inflate(z, Z_SYNC_FLUSH);
            out = inflated_capacity - z->avail_out;
            if (status != Z_OK && status != Z_BUF_ERROR) {
                others++;
                return;
            }
            if (status == Z_BUF_ERROR && z->avail_out > 0) break;
        }
    }
    if (c->reset_each_message) inflateReset(z);
    message(c, inflated, out, t);
}

static void send_pong(Client *c, const unsigned char *payload, size_t n) {
    unsigned char frame[2 + 4 + 125];
    if (n > 125) return;
    frame[0] = 0x8A;
    frame[1] = 0x80 | (unsigned char)n;
    unsigned char mask[4] = {0x12, 0x34, 0x56, 0x78};
    memcpy(frame + 2, mask, 4);
    for (size_t i = 0; i < n; i++) frame[6 + i] = payload[i] ^ mask[i % 4];
    (void)!write(c->fd, frame, 6 + n);
}

/* Consumes complete frames from the buffer; returns 0 when the server closed the connection. */
static int frames(Client *c, int64_t t) {
    size_t off = 0;
    int alive = 1;
    while (c->used - off >= 2) {
        unsigned char *f = c->buffer + off;
        uint64_t len = f[1] & 0x7F;
        size_t header = 2;
        if (len == 126) {
            if (c->used - off < 4) break;
            len = ((uint64_t)f[2] << 8) | f[3];
            header = 4;
        } else if (len == 127) {
            if (c->used - off < 10) break;
            len = 0;
            for (int i = 0; i < 8; i++) len = (len << 8) | f[2 + i];
            header = 10;
        }
        if (c->used - off < header + len) break;
        int opcode = f[0] & 0x0F;
        unsigned char *payload = f + header;
        if ((opcode == 0x1 || opcode == 0x2) && (f[0] & 0x40) && c->inflater) {
            inflate_message(c, payload, len, t);
        } else if (opcode == 0x1 || opcode == 0x2) {
            message(c, payload, len, t);
        } else if (opcode == 0x9) {
            send_pong(c, payload, len);
        } else if (opcode == 0x8) {
            alive = 0;
        } else {
            others++;
        }
        off += header + len;
    }
    if (off) {
        memmove(c->buffer, c->buffer + off, c->used - off);
        c->used -= off;
    }
    return alive;
}

static int read_into(Client *c) {
    for (;;) {
        if (c->capacity - c->used < 65536) {
            c->capacity = c->capacity * 2 + 65536;
            c->buffer = realloc(c->buffer, c->capacity);
            if (!c->buffer) die("realloc");
        }
        size_t space = c->capacity - c->used;
        ssize_t r = read(c->fd, c->buffer + c->used, space);
        if (r > 0) {
            c->used += (size_t)r;
            if ((size_t)r < space) return 1; /* drained for now */
            continue;
        }
        if (r == 0) return 0;
        if (errno == EAGAIN || errno == EWOULDBLOCK) return 1;
        if (errno == EINTR) continue;
        return 0;
    }
}

static void close_client(int ep, Client *c) {
    epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL);
    close(c->fd);
    c->state = CLOSED;
}

static int port, sources, first_source, reconnect;
/* Handshakes in progress at once (SPECTATORS_IN_FLIGHT, default 256). */
static int in_flight = 256;
static int in_progress;
static size_t connected, failed;
static long reconnects;
static int64_t last_open_ns, first_close_ns;

/* Starts a non-blocking connect for client `index`; 0 when it failed at once. */
static int start_connect(int ep, Client *clients, size_t index) {
    Client *c = &clients[index];
    c->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    if (c->fd < 0) die("socket");
    int one = 1;
    setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    struct sockaddr_in src = {.sin_family = AF_INET};
    src.sin_addr.s_addr = htonl(0x7F000001u + (uint32_t)((first_source + (int)index) % sources));
    if (bind(c->fd, (struct sockaddr *)&src, sizeof src) < 0) die("bind");
    struct sockaddr_in dst = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    dst.sin_addr.s_addr = htonl(0x7F000001u);
    if (connect(c->fd, (struct sockaddr *)&dst, sizeof dst) < 0 && errno != EINPROGRESS) {
        close(c->fd);
        c->state = CLOSED;
        return 0;
    }
    c->state = CONNECTING;
    c->used = 0;
    c->connection_seq = -1;
    struct epoll_event e = {.events = EPOLLOUT, .data.ptr = c};
    epoll_ctl(ep, EPOLL_CTL_ADD, c->fd, &e);
    in_progress++;
    return 1;
}

/* A connection ended: with reconnecting on (after ready), the client waits to connect again; else it is closed. */
static void lost(int ep, Client *c, int64_t t, int was_open) {
    if (was_open) closed_count++;
    close_client(ep, c);
    if (!reconnect) return;
    if (!first_close_ns) first_close_ns = t;
    if (c->inflater) {
        inflateEnd(c->inflater);
        free(c->inflater);
        c->inflater = NULL;
    }
    c->state = WAITING;
    c->retry_at = t + 50000000;
}

/* One readiness event of a client, in any phase. */
static void client_event(int ep, Client *c, int64_t t) {
    if (c->state == CONNECTING) {
        int error = 0;
        socklen_t length = sizeof error;
        getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &error, &length);
        in_progress--;
        if (error) {
            failed++;
            lost(ep, c, t, 0);
            return;
        }
        char request[1024];
        char query[64] = "";
        if (reconnect && c->last_seq >= 0) snprintf(query, sizeof query, "?since=%lld", (long long)c->last_seq);
        int size = snprintf(request, sizeof request,
                            "GET %s%s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\n"
                            "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                            "Sec-WebSocket-Version: 13\r\n%s\r\n",
                            c->path, query, port,
                            offer_deflate ? "Sec-WebSocket-Extensions: permessage-deflate; "
                                            "client_max_window_bits\r\n"
                                          : "");
        if (write(c->fd, request, (size_t)size) != size) {
            failed++;
            lost(ep, c, t, 0);
            return;
        }
        in_progress++;
        c->state = UPGRADING;
        struct epoll_event e = {.events = EPOLLIN, .data.ptr = c};
        epoll_ctl(ep, EPOLL_CTL_MOD, c->fd, &e);
    } else if (c->state == UPGRADING) {
        int alive = read_into(c);
        unsigned char *end = memmem(c->buffer, c->used, "\r\n\r\n", 4);
        if (!end) {
            if (!alive) {
                failed++;
                in_progress--;
                lost(ep, c, t, 0);
            }
            return;
        }
        in_progress--;
        if (c->used < 13 || memcmp(c->buffer + 8, " 101", 4) != 0) {
            failed++;
            lost(ep, c, t, 0);
            return;
        }
        size_t head = (size_t)(end - c->buffer) + 4;
        if (offer_deflate && memmem(c->buffer, head, "permessage-deflate", 18)) {
            c->inflater = calloc(1, sizeof(z_stream));
            if (!c->inflater || inflateInit2(c->inflater, -15) != Z_OK) die("inflateInit2");
            c->reset_each_message = memmem(c->buffer, head, "server_no_context_takeover", 26) != NULL;
            deflate_agreed++;
        }
        memmove(c->buffer, c->buffer + head, c->used - head);
        c->used -= head;
        c->state = OPEN;
        connected++;
        last_open_ns = t;
        if (!frames(c, t) || !alive) lost(ep, c, t, 1);
    } else if (c->state == OPEN) {
        int alive = read_into(c);
        if (!frames(c, t) || !alive) lost(ep, c, t, 1);
    }
}

/* Connects the waiting clients whose retry time has come, at most in_flight handshakes in progress. */
static void retry_waiting(int ep, Client *clients, size_t count, int64_t t) {
    for (size_t i = 0; i < count && in_progress < in_flight; i++) {
        Client *c = &clients[i];
        if (c->state != WAITING || c->retry_at > t) continue;
        reconnects++;
        if (!start_connect(ep, clients, i)) {
            c->state = WAITING;
            c->retry_at = t + 50000000;
        }
    }
}

/* How many clients are open and have read seq `target` or later on their current connection. */
static size_t in_step(const Client *clients, size_t count, int64_t target, size_t *open) {
    size_t n = 0;
    *open = 0;
    for (size_t i = 0; i < count; i++) {
        if (clients[i].state != OPEN) continue;
        (*open)++;
        if (clients[i].connection_seq >= target) n++;
    }
    return n;
}

int main(int argc, char **argv) {
    if (argc != 6 && !(argc == 7 && strcmp(argv[6], "deflate") == 0)) {
        fprintf(stderr, "usage: spectators PORT SOURCES FIRST_SOURCE PLAN OUT [deflate]\n");
        return 2;
    }
    offer_deflate = argc == 7;
    port = atoi(argv[1]);
    sources = atoi(argv[2]);
    first_source = atoi(argv[3]);
    const char *wait_first_env = getenv("SPECTATORS_WAIT_FIRST");
    int timing = wait_first_env != NULL;
    const char *reconnect_env = getenv("SPECTATORS_RECONNECT");
    int wait_first = wait_first_env && strcmp(wait_first_env, "1") == 0;
    int want_reconnect = reconnect_env && strcmp(reconnect_env, "1") == 0;
    const char *in_flight_env = getenv("SPECTATORS_IN_FLIGHT");
    if (in_flight_env && atoi(in_flight_env) > 0) in_flight = atoi(in_flight_env);
    FILE *plan = fopen(argv[4], "r");
    if (!plan) die(argv[4]);
    size_t count = 0, capacity = 1024;
    Client *clients = calloc(capacity, sizeof(Client));
    char path[512];
    long long game;
    while (fscanf(plan, "%lld %511s", &game, path) == 2) {
        if (count == capacity) {
            capacity *= 2;
            clients = realloc(clients, capacity * sizeof(Client));
        }
        memset(&clients[count], 0, sizeof(Client));
        clients[count].game = game;
        clients[count].path = strdup(path);
        clients[count].fd = -1;
        clients[count].last_seq = -1;
        clients[count].connection_seq = -1;
        count++;
    }
    fclose(plan);

    struct rlimit limit;
    getrlimit(RLIMIT_NOFILE, &limit);
    limit.rlim_cur = limit.rlim_max;
    setrlimit(RLIMIT_NOFILE, &limit);
    if (count + 16 > limit.rlim_cur) {
        fprintf(stderr, "spectators: %zu connections need more than the open-file limit %ld\n", count,
                (long)limit.rlim_cur);
        return 1;
    }

    int ep = epoll_create1(0);
    if (ep < 0) die("epoll_create1");
    struct epoll_event stdin_event = {.events = EPOLLIN, .data.ptr = NULL};
    epoll_ctl(ep, EPOLL_CTL_ADD, 0, &stdin_event);
    struct epoll_event events[512];

    /* Connect, at most in_flight handshakes in progress (a connect and its upgrade count as one). */
    size_t next = 0;
    int64_t started = now_ns();
    int64_t deadline = started + 120LL * 1000000000;
    for (;;) {
        int pending_first = wait_first && first_messages < (int64_t)connected;
        if (!(next < count || in_progress > 0 || pending_first) || now_ns() >= deadline) break;
        while (next < count && in_progress < in_flight) {
            if (!start_connect(ep, clients, next)) failed++;
            next++;
        }
        int n = epoll_wait(ep, events, 512, 200);
        int64_t t = now_ns();
        for (int i = 0; i < n; i++) {
            Client *c = events[i].data.ptr;
            if (c) client_event(ep, c, t);
        }
    }
    failed += (size_t)in_progress;
    if (timing) {
        printf("timing %zu %lld %lld %lld\n", connected, (long long)first_messages,
               (long long)(connected ? last_open_ns - started : 0),
               (long long)(first_messages ? last_first_message_ns - started : 0));
    }
    printf("ready %zu %zu %ld\n", connected, failed, deflate_agreed);
    fflush(stdout);
    reconnect = want_reconnect;

    /* Read until stdin says stop or closes; with reconnecting on, "seq S SECONDS" waits for every client in step. */
    char line[256];
    size_t line_used = 0;
    int64_t waiting_for = -1, command_ns = 0, command_deadline = 0;
    for (;;) {
        int n = epoll_wait(ep, events, 512, reconnect ? 10 : 1000);
        int stop = 0;
        int64_t t = now_ns();
        for (int i = 0; i < n; i++) {
            Client *c = events[i].data.ptr;
            if (c) {
                client_event(ep, c, t);
                continue;
            }
            ssize_t r = read(0, line + line_used, sizeof line - 1 - line_used);
            if (r <= 0) {
                stop = 1;
                continue;
            }
            line_used += (size_t)r;
            line[line_used] = 0;
            char *newline = strchr(line, '\n');
            if (!newline && line_used < sizeof line - 1) continue;
            long long target = 0, seconds = 0;
            if (reconnect && sscanf(line, "seq %lld %lld", &target, &seconds) == 2) {
                waiting_for = target;
                command_ns = t;
                command_deadline = t + seconds * 1000000000LL;
            } else {
                stop = 1;
            }
            line_used = 0;
        }
        if (reconnect) retry_waiting(ep, clients, count, t);
        if (waiting_for >= 0) {
            size_t open = 0;
            size_t ready_count = in_step(clients, count, waiting_for, &open);
            if (ready_count == count || t >= command_deadline) {
                printf("seq %lld %zu %zu %ld %lld %lld\n", (long long)waiting_for, ready_count, open, reconnects,
                       (long long)(first_close_ns ? t - first_close_ns : 0), (long long)(t - command_ns));
                fflush(stdout);
                waiting_for = -1;
            }
        }
        if (stop) break;
    }
    FILE *out = fopen(argv[5], "wb");
    if (!out) die(argv[5]);
    if (record_count && fwrite(records, sizeof(Record), record_count, out) != record_count) die("fwrite");
    fclose(out);
    printf("done %zu %ld %ld %ld\n", record_count, snapshots, others, closed_count);
    fflush(stdout);
    return 0;
}

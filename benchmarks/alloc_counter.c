/*
 * An LD_PRELOAD allocation counter for benchmarks/allocations.sh: wraps malloc, calloc, realloc, free and the
 * aligned allocators (the Swift runtime uses posix_memalign/aligned_alloc for over-aligned objects) and counts
 * every call into a small file mapped shared, so another process (courtside-load --alloc-counter FILE) can read
 * the counts at the points it chooses, without signals or a pause of the measured process.
 *
 *   cc -O2 -shared -fPIC -o alloc_counter.so benchmarks/alloc_counter.c
 *   ALLOC_COUNTER_FILE=/tmp/counts LD_PRELOAD=./alloc_counter.so courtside-echo ...
 *
 * The file holds little-endian uint64 counters: allocations (malloc, calloc, aligned, and realloc of NULL),
 * reallocations (realloc of a live block), frees (of non-NULL pointers), bytes requested, then the heap in use
 * (the usable size of every live block, malloc_usable_size) and 65 counts of live blocks by usable size in
 * 16-byte classes (class k holds sizes 16k+1 ... 16k+16; the last class everything over 1 KiB): the heap profile
 * of what, say, an idle connection keeps. The real allocator is glibc's, reached through its __libc_* entry
 * points (no dlsym, which itself allocates).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);
extern void *__libc_memalign(size_t, size_t);

enum { SIZE_CLASSES = 65 };

typedef struct {
    uint64_t allocations, reallocations, frees, bytes;
    uint64_t live_bytes;
    uint64_t live_blocks[SIZE_CLASSES];
} Counts;

/* Counted here until the constructor maps the file, then in the file (carrying over what came before). */
static Counts early;
static Counts *counts = &early;

__attribute__((constructor)) static void map_counter_file(void) {
    const char *path = getenv("ALLOC_COUNTER_FILE");
    if (!path) return;
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) return;
    if (ftruncate(fd, sizeof(Counts)) != 0) {
        close(fd);
        return;
    }
    void *mapped = mmap(NULL, sizeof(Counts), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (mapped == MAP_FAILED) return;
    Counts *shared = mapped;
    *shared = early;
    counts = shared;
}

static inline void count(uint64_t *counter, uint64_t amount) {
    __atomic_fetch_add(counter, amount, __ATOMIC_RELAXED);
}

static inline uint64_t *size_class(size_t usable) {
    size_t index = usable == 0 ? 0 : (usable - 1) / 16;
    return &counts->live_blocks[index < SIZE_CLASSES - 1 ? index : SIZE_CLASSES - 1];
}

/* A block came to life (or went away, with a negative sign): the heap-in-use profile. */
static inline void *live(void *pointer, int sign) {
    if (!pointer) return pointer;
    size_t usable = malloc_usable_size(pointer);
    count(&counts->live_bytes, sign > 0 ? usable : -(uint64_t)usable);
    count(size_class(usable), sign > 0 ? 1 : (uint64_t)-1);
    return pointer;
}

void *malloc(size_t size) {
    count(&counts->allocations, 1);
    count(&counts->bytes, size);
    return live(__libc_malloc(size), 1);
}

void *calloc(size_t n, size_t size) {
    count(&counts->allocations, 1);
    count(&counts->bytes, n * size);
    return live(__libc_calloc(n, size), 1);
}

void *realloc(void *pointer, size_t size) {
    count(pointer ? &counts->reallocations : &counts->allocations, 1);
    count(&counts->bytes, size);
    live(pointer, -1);
    void *result = __libc_realloc(pointer, size);
    if (!result && pointer && size) return live(pointer, 1); /* failed: the old block lives on */
    return live(result, 1);
}

void free(void *pointer) {
    if (pointer) count(&counts->frees, 1);
    live(pointer, -1);
    __libc_free(pointer);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    count(&counts->allocations, 1);
    count(&counts->bytes, size);
    void *pointer = live(__libc_memalign(alignment, size), 1);
    if (!pointer) return ENOMEM;
    *result = pointer;
    return 0;
}

void *aligned_alloc(size_t alignment, size_t size) {
    count(&counts->allocations, 1);
    count(&counts->bytes, size);
    return live(__libc_memalign(alignment, size), 1);
}

void *memalign(size_t alignment, size_t size) {
    count(&counts->allocations, 1);
    count(&counts->bytes, size);
    return live(__libc_memalign(alignment, size), 1);
}

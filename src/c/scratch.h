/* Scratch arrays in huge pages, for the kernels' random-access loops (braid.c's flood, carve.c's
 * prim): at 16M cells those loops' time is largely address translation, and a 2 MB page covers
 * what 512 small ones do. Pages are only committed when touched, so a generous size costs
 * address space only. Include after Python.h (mt19937.h). */
#ifndef MAZEKIT_SCRATCH_H
#define MAZEKIT_SCRATCH_H

#if defined(__linux__)
#include <sys/mman.h>
#endif

/* ``bytes`` of scratch (not zeroed), asked of the kernel in huge pages where Linux offers them;
 * NULL when there is no memory. */
static void *scratch_alloc(size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    void *memory = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED) return NULL;
    madvise(memory, bytes, MADV_HUGEPAGE);
    return memory;
#else
    return PyMem_Malloc(bytes);
#endif
}

/* Release what scratch_alloc gave (NULL is allowed). */
static void scratch_free(void *memory, size_t bytes) {
    if (memory == NULL) return;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    munmap(memory, bytes);
#else
    (void)bytes;
    PyMem_Free(memory);
#endif
}

#endif

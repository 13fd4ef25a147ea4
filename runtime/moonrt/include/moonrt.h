/* moonrt.h: the C interface of moonrt, the runtime of moonc-compiled code. */

/*
 * Calling convention of moonc-compiled functions (x86-64 Linux, MLIR 22's
 * LLVM lowering). A public `func.func @f(...)` becomes the C function `f`:
 *
 *   - scalar arguments are passed by value: f32 as float, f64 as double, i1 as
 *     bool, iN as intN_t, index as int64_t;
 *   - a memref argument is passed as a pointer to its descriptor, a
 *     `moonrt_memref_<elt>_<rank>d` (see MOONRT_MEMREF_TYPE);
 *   - a single non-memref result is returned by value;
 *   - several results, or any memref result, are returned through a pointer
 *     to a result struct passed as the FIRST argument, and `f` returns void.
 *
 * A memref that compiled code returns may point to memory it allocated with
 * `memref.alloc` (libc malloc: release it with free(m.allocated)) or alias an
 * argument; the caller frees it only when it knows the buffer is fresh.
 *
 * Errors: moonrt functions that fail return NULL (or do nothing) and record a
 * message that moonrt_last_error() returns; compiled code reports its errors
 * the same way, through moonrt_set_error().
 *
 * Link with `-lmoonrt -lmvec -lm` (and `-lopenblas -llapacke -lpthread
 * -ldl` with the static libmoonrt.a). Usable from C99 and C++.
 */

#ifndef MOONRT_H
#define MOONRT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------
 * Memref descriptors
 * ------------------------------------------------------------------------ */

/*
 * Defines NAME as the descriptor of a rank-N (N >= 1) memref of T. The element
 * at index (i0, ..., iN-1) lives at
 * aligned[offset + i0 * strides[0] + ... + iN-1 * strides[N-1]].
 */
#define MOONRT_MEMREF_TYPE(NAME, T, N)                                         \
  typedef struct NAME {                                                        \
    T *allocated;       /* start of the allocation, what free() takes */       \
    T *aligned;         /* aligned start of the data */                        \
    int64_t offset;     /* first element's distance from aligned */            \
    int64_t sizes[N];   /* size of each dimension */                           \
    int64_t strides[N]; /* distance between neighbours, in elements */         \
  } NAME

/* Defines NAME as the descriptor of a rank-0 memref (one element) of T. */
#define MOONRT_MEMREF0_TYPE(NAME, T)                                           \
  typedef struct NAME {                                                        \
    T *allocated;                                                              \
    T *aligned;                                                                \
    int64_t offset;                                                            \
  } NAME

/* The element of a memref descriptor M at the given index, as an lvalue. */
#define MOONRT_AT0(M) ((M).aligned[(M).offset])
#define MOONRT_AT1(M, I0) ((M).aligned[(M).offset + (I0) * (M).strides[0]])
#define MOONRT_AT2(M, I0, I1)                                                  \
  ((M).aligned[(M).offset + (I0) * (M).strides[0] + (I1) * (M).strides[1]])
#define MOONRT_AT3(M, I0, I1, I2)                                              \
  ((M).aligned[(M).offset + (I0) * (M).strides[0] + (I1) * (M).strides[1] +    \
               (I2) * (M).strides[2]])
#define MOONRT_AT4(M, I0, I1, I2, I3)                                          \
  ((M).aligned[(M).offset + (I0) * (M).strides[0] + (I1) * (M).strides[1] +    \
               (I2) * (M).strides[2] + (I3) * (M).strides[3]])

/* Qualifies inline helpers ("unused" quiets checks of the header alone). */
#if defined(__GNUC__) || defined(__clang__)
#define MOONRT_INLINE static inline __attribute__((unused))
#else
#define MOONRT_INLINE static inline
#endif

/*
 * Defines moonrt_memref_<ELT>_<k>d for k = 0..4 and, for each, the
 * constructor moonrt_memref_<ELT>_<k>d_from(data, n0, ..., nk-1), which
 * describes contiguous row-major data of that shape.
 */
#define MOONRT_DEFINE_MEMREFS_(ELT, T)                                         \
  MOONRT_MEMREF0_TYPE(moonrt_memref_##ELT##_0d, T);                            \
  MOONRT_MEMREF_TYPE(moonrt_memref_##ELT##_1d, T, 1);                          \
  MOONRT_MEMREF_TYPE(moonrt_memref_##ELT##_2d, T, 2);                          \
  MOONRT_MEMREF_TYPE(moonrt_memref_##ELT##_3d, T, 3);                          \
  MOONRT_MEMREF_TYPE(moonrt_memref_##ELT##_4d, T, 4);                          \
  MOONRT_INLINE moonrt_memref_##ELT##_0d moonrt_memref_##ELT##_0d_from(        \
      T *data) {                                                               \
    moonrt_memref_##ELT##_0d m;                                                \
    m.allocated = data;                                                        \
    m.aligned = data;                                                          \
    m.offset = 0;                                                              \
    return m;                                                                  \
  }                                                                            \
  MOONRT_INLINE moonrt_memref_##ELT##_1d moonrt_memref_##ELT##_1d_from(        \
      T *data, int64_t n0) {                                                   \
    moonrt_memref_##ELT##_1d m;                                                \
    m.allocated = data;                                                        \
    m.aligned = data;                                                          \
    m.offset = 0;                                                              \
    m.sizes[0] = n0;                                                           \
    m.strides[0] = 1;                                                          \
    return m;                                                                  \
  }                                                                            \
  MOONRT_INLINE moonrt_memref_##ELT##_2d moonrt_memref_##ELT##_2d_from(        \
      T *data, int64_t n0, int64_t n1) {                                       \
    moonrt_memref_##ELT##_2d m;                                                \
    m.allocated = data;                                                        \
    m.aligned = data;                                                          \
    m.offset = 0;                                                              \
    m.sizes[0] = n0;                                                           \
    m.sizes[1] = n1;                                                           \
    m.strides[1] = 1;                                                          \
    m.strides[0] = n1;                                                         \
    return m;                                                                  \
  }                                                                            \
  MOONRT_INLINE moonrt_memref_##ELT##_3d moonrt_memref_##ELT##_3d_from(        \
      T *data, int64_t n0, int64_t n1, int64_t n2) {                           \
    moonrt_memref_##ELT##_3d m;                                                \
    m.allocated = data;                                                        \
    m.aligned = data;                                                          \
    m.offset = 0;                                                              \
    m.sizes[0] = n0;                                                           \
    m.sizes[1] = n1;                                                           \
    m.sizes[2] = n2;                                                           \
    m.strides[2] = 1;                                                          \
    m.strides[1] = n2;                                                         \
    m.strides[0] = n1 * n2;                                                    \
    return m;                                                                  \
  }                                                                            \
  MOONRT_INLINE moonrt_memref_##ELT##_4d moonrt_memref_##ELT##_4d_from(        \
      T *data, int64_t n0, int64_t n1, int64_t n2, int64_t n3) {               \
    moonrt_memref_##ELT##_4d m;                                                \
    m.allocated = data;                                                        \
    m.aligned = data;                                                          \
    m.offset = 0;                                                              \
    m.sizes[0] = n0;                                                           \
    m.sizes[1] = n1;                                                           \
    m.sizes[2] = n2;                                                           \
    m.sizes[3] = n3;                                                           \
    m.strides[3] = 1;                                                          \
    m.strides[2] = n3;                                                         \
    m.strides[1] = n2 * n3;                                                    \
    m.strides[0] = n1 * n2 * n3;                                               \
    return m;                                                                  \
  }

/* moonrt_memref_{f32,f64,i1,i32,i64,index}_{0,1,2,3,4}d and constructors. */
MOONRT_DEFINE_MEMREFS_(f32, float)
MOONRT_DEFINE_MEMREFS_(f64, double)
MOONRT_DEFINE_MEMREFS_(i1, bool)
MOONRT_DEFINE_MEMREFS_(i32, int32_t)
MOONRT_DEFINE_MEMREFS_(i64, int64_t)
MOONRT_DEFINE_MEMREFS_(index, int64_t)

/*
 * An unranked memref as MLIR passes it to memrefCopy: the rank, and a
 * pointer to a ranked descriptor of that rank.
 */
typedef struct moonrt_unranked_memref {
  int64_t rank;
  void *descriptor;
} moonrt_unranked_memref;

/*
 * Copies the memref *src into *dst (same shape, any strides, both pointing
 * to a moonrt_unranked_memref), elemSize bytes per element. This is the
 * function MLIR's finalize-memref-to-llvm calls for memref.copy; on bad
 * arguments it copies nothing and sets the last error.
 */
void memrefCopy(int64_t elemSize, void *src, void *dst);

/* ---------------------------------------------------------------------------
 * Aligned allocation
 * ------------------------------------------------------------------------ */

/*
 * Allocates size bytes aligned to alignment (a power of two, rounded up to
 * the pointer size). Returns NULL and sets the last error on failure; size 0
 * returns a unique non-NULL pointer. Release with moonrt_aligned_free (or
 * free).
 */
void *moonrt_aligned_alloc(size_t alignment, size_t size);

/* Releases memory from moonrt_aligned_alloc; NULL is ignored. */
void moonrt_aligned_free(void *p);

/*
 * Makes glibc's malloc keep freed memory for later allocations (buffers of
 * any size from the heap, trimmed only above 1 GiB free) instead of
 * returning it to the system, so that code allocating the same large
 * buffers on every call does not take fresh pages each time. moonc calls it
 * at start; call it once before calling compiled code in a loop.
 */
void moonrt_keep_freed_memory(void);

/* ---------------------------------------------------------------------------
 * Errors (per thread)
 * ------------------------------------------------------------------------ */

/*
 * The calling thread's last error message, NUL-terminated and valid until
 * the next moonrt call on this thread, or NULL if there is none. Successful
 * calls do not clear it (like errno).
 */
const char *moonrt_last_error(void);

/* Forgets the calling thread's last error. */
void moonrt_clear_error(void);

/* Records msg (copied) as the calling thread's last error. */
void moonrt_set_error(const char *msg);

/* ---------------------------------------------------------------------------
 * Tape arena (LIFO), for reverse-mode derivative code
 * ------------------------------------------------------------------------ */

/*
 * A LIFO stack allocator: the forward sweep pushes values, the backward
 * sweep pops them in reverse order. Chunks double in size and never move;
 * popped memory is reused; once the arena has reached its peak, pushes and
 * pops allocate nothing. Not thread-safe: one thread at a time.
 */
typedef struct moonrt_arena moonrt_arena;

/* A new, empty arena whose first chunk holds initial_bytes; NULL on failure. */
moonrt_arena *moonrt_arena_new(size_t initial_bytes);

/* Frees an arena and all the memory pushed on it; NULL is ignored. */
void moonrt_arena_free(moonrt_arena *arena);

/*
 * Pushes bytes fresh bytes aligned to align (a power of two) and returns
 * them; NULL and the last error on bad alignment or out of memory.
 */
void *moonrt_arena_push(moonrt_arena *arena, size_t bytes, size_t align);

/*
 * Pops the latest push, which must have been of bytes bytes aligned to
 * align, and returns its pointer (contents intact until the next push).
 * Popping more than was pushed, or a size that differs from the latest
 * push, returns NULL and sets the last error.
 */
void *moonrt_arena_pop(moonrt_arena *arena, size_t bytes, size_t align);

/* Pops every push at once; the memory is kept for reuse. */
void moonrt_arena_reset(moonrt_arena *arena);

/* The bytes pushed and not yet popped (padding excluded). */
size_t moonrt_arena_bytes_in_use(const moonrt_arena *arena);

/* The most bytes ever in use at once on the arena. */
size_t moonrt_arena_peak_bytes(const moonrt_arena *arena);

/* ---------------------------------------------------------------------------
 * Default tape (per thread), for compiled reverse-mode code
 * ------------------------------------------------------------------------ */

/*
 * Each thread has a default tape, created on its first push: the values the
 * forward sweep of compiled reverse-mode code saves when it cannot size a
 * buffer up front (while loops, cf loops, recursion), popped in reverse
 * order by the backward sweep. Values of one size share a LIFO stack (one
 * for f64 and i64, one for f32), so pops must mirror the pushes in reverse,
 * type for type. The stacks live in 4 KiB blocks of a moonrt arena: a push
 * or pop touches only the current block, and once the tape has reached its
 * peak nothing allocates any more.
 */

/* Pushes a double on the calling thread's default tape. */
void moonrt_tape_push_f64(double value);

/* Pops the latest double; 0 and the last error if the tape has none. */
double moonrt_tape_pop_f64(void);

/* Pushes a float on the calling thread's default tape. */
void moonrt_tape_push_f32(float value);

/* Pops the latest float; 0 and the last error if the tape has none. */
float moonrt_tape_pop_f32(void);

/*
 * Pushes an int64_t on the calling thread's default tape (compiled code
 * widens index, i1 and iN values to it).
 */
void moonrt_tape_push_i64(int64_t value);

/* Pops the latest int64_t; 0 and the last error if the tape has none. */
int64_t moonrt_tape_pop_i64(void);

/*
 * The cursor of the calling thread's stack of doubles and int64_ts, through
 * which compiled code (moonc's --moon-inline-tape) pushes and pops without
 * a call while the current block has room: a push stores at `top` and
 * moves it up by 8 unless `top == end`; a pop, unless `top == base`, first
 * raises `high` to `top` (which keeps moonrt_tape_peak_bytes exact), then
 * moves `top` down by 8 and loads. Otherwise they call the functions
 * above, which move the cursor to another block. Its address is the same
 * for the thread's life.
 */
typedef struct moonrt_tape_block_cursor {
    unsigned char *top;
    unsigned char *end;
    unsigned char *base;
    unsigned char *high;
} moonrt_tape_block_cursor;
moonrt_tape_block_cursor *moonrt_tape_cursor(void);

/*
 * Counts bytes of memory that compiled code allocated itself for its tape
 * (a buffer sized before a loop, with memref.alloc) as in use on the default
 * tape, so that it shows in moonrt_tape_peak_bytes. Negative: an error.
 */
void moonrt_tape_note_alloc(int64_t bytes);

/*
 * Counts bytes noted by moonrt_tape_note_alloc as released; more than is
 * noted, or a negative count, is an error and changes nothing.
 */
void moonrt_tape_note_free(int64_t bytes);

/*
 * The most bytes the default tape has held at once since the last
 * moonrt_tape_reset_peak (or since the thread started): values pushed and
 * not popped (8 bytes per double or int64_t, 4 per float; the blocks they
 * sit in are not counted) plus noted allocations.
 */
int64_t moonrt_tape_peak_bytes(void);

/* Restarts the peak at the bytes the default tape holds now. */
void moonrt_tape_reset_peak(void);

/*
 * The bytes the default tape holds now (values and noted allocations, as
 * moonrt_tape_peak_bytes counts them): 0 after a balanced derivative call.
 */
int64_t moonrt_tape_bytes_in_use(void);

/*
 * Limits the default tape of every thread to `bytes` (values and noted
 * allocations; 0 or less: no limit). Out of memory for the tape, or past the
 * limit, a push or a noted allocation ends the process with status 1 and
 * "moonrt: out of memory: the tape needs N bytes" (", over the limit of M
 * bytes") on stderr: the derivative cannot be computed without the values.
 */
void moonrt_tape_set_limit(int64_t bytes);

/* ---------------------------------------------------------------------------
 * BLAS and LAPACK over OpenBLAS and LAPACKE (docs/blas.md), for compiled
 * code and C callers
 * ------------------------------------------------------------------------ */

/*
 * Each routine takes memrefs of any offset and strides (a matrix contiguous
 * along neither dimension, or not in the order a routine needs, a vector
 * of stride 0, and an input that overlaps the output are copied first).
 * Flags are int32_t: nonzero transposes (trans), takes the lower triangle
 * (lower), the unit diagonal (unit) or the right side (right). Mismatched
 * sizes, or sizes beyond 32-bit int, set the last error and compute
 * nothing (a LAPACK routine then returns -1; otherwise it returns LAPACK's
 * info: 0, or > 0 for a singular or indefinite matrix). ipiv holds
 * LAPACK's 1-based pivots. Link -lopenblas -llapacke with libmoonrt.a.
 * Two helpers serve derivative rules: laswp applies getrf's row
 * interchanges (in order when forward is nonzero: A := P^T A; in reverse
 * otherwise: A := P A), and potrf_adjoint turns the adjoint G of potrf's
 * factor L (its lower triangle, or the upper factor) into the adjoint of
 * the triangle of A that potrf read, in place in G's same triangle.
 */
#define MOONRT_DECLARE_BLAS_(P, ELT, T)                                        \
  typedef moonrt_memref_##ELT##_1d moonrt_##P##vec_;                           \
  typedef moonrt_memref_##ELT##_2d moonrt_##P##mat_;                           \
  T moonrt_##P##dot(const moonrt_##P##vec_ *x, const moonrt_##P##vec_ *y);    \
  T moonrt_##P##nrm2(const moonrt_##P##vec_ *x);                               \
  T moonrt_##P##asum(const moonrt_##P##vec_ *x);                               \
  void moonrt_##P##scal(T alpha, const moonrt_##P##vec_ *x);                   \
  void moonrt_##P##axpy(T alpha, const moonrt_##P##vec_ *x,                    \
                        const moonrt_##P##vec_ *y);                            \
  void moonrt_##P##copy(const moonrt_##P##vec_ *x, const moonrt_##P##vec_ *y); \
  void moonrt_##P##gemv(int32_t trans, T alpha, const moonrt_##P##mat_ *a,     \
                        const moonrt_##P##vec_ *x, T beta,                     \
                        const moonrt_##P##vec_ *y);                            \
  void moonrt_##P##symv(int32_t lower, T alpha, const moonrt_##P##mat_ *a,     \
                        const moonrt_##P##vec_ *x, T beta,                     \
                        const moonrt_##P##vec_ *y);                            \
  void moonrt_##P##trmv(int32_t lower, int32_t trans, int32_t unit,            \
                        const moonrt_##P##mat_ *a, const moonrt_##P##vec_ *x); \
  void moonrt_##P##trsv(int32_t lower, int32_t trans, int32_t unit,            \
                        const moonrt_##P##mat_ *a, const moonrt_##P##vec_ *x); \
  void moonrt_##P##ger(T alpha, const moonrt_##P##vec_ *x,                     \
                       const moonrt_##P##vec_ *y, const moonrt_##P##mat_ *a);  \
  void moonrt_##P##gemm(int32_t transa, int32_t transb, T alpha,               \
                        const moonrt_##P##mat_ *a, const moonrt_##P##mat_ *b,  \
                        T beta, const moonrt_##P##mat_ *c);                    \
  void moonrt_##P##symm(int32_t right, int32_t lower, T alpha,                 \
                        const moonrt_##P##mat_ *a, const moonrt_##P##mat_ *b,  \
                        T beta, const moonrt_##P##mat_ *c);                    \
  void moonrt_##P##syrk(int32_t lower, int32_t trans, T alpha,                 \
                        const moonrt_##P##mat_ *a, T beta,                     \
                        const moonrt_##P##mat_ *c);                            \
  void moonrt_##P##trmm(int32_t right, int32_t lower, int32_t trans,           \
                        int32_t unit, T alpha, const moonrt_##P##mat_ *a,      \
                        const moonrt_##P##mat_ *b);                            \
  void moonrt_##P##trsm(int32_t right, int32_t lower, int32_t trans,           \
                        int32_t unit, T alpha, const moonrt_##P##mat_ *a,      \
                        const moonrt_##P##mat_ *b);                            \
  int32_t moonrt_##P##getrf(const moonrt_##P##mat_ *a,                         \
                            const moonrt_memref_i32_1d *ipiv);                 \
  int32_t moonrt_##P##getrs(int32_t trans, const moonrt_##P##mat_ *a,          \
                            const moonrt_memref_i32_1d *ipiv,                  \
                            const moonrt_##P##mat_ *b);                        \
  int32_t moonrt_##P##getri(const moonrt_##P##mat_ *a,                         \
                            const moonrt_memref_i32_1d *ipiv);                 \
  int32_t moonrt_##P##potrf(int32_t lower, const moonrt_##P##mat_ *a);         \
  int32_t moonrt_##P##potrs(int32_t lower, const moonrt_##P##mat_ *a,         \
                            const moonrt_##P##mat_ *b);                        \
  int32_t moonrt_##P##trtrs(int32_t lower, int32_t trans, int32_t unit,        \
                            const moonrt_##P##mat_ *a,                         \
                            const moonrt_##P##mat_ *b);                        \
  int32_t moonrt_##P##sytrf(int32_t lower, const moonrt_##P##mat_ *a,          \
                            const moonrt_memref_i32_1d *ipiv);                 \
  int32_t moonrt_##P##sytrs(int32_t lower, const moonrt_##P##mat_ *a,          \
                            const moonrt_memref_i32_1d *ipiv,                  \
                            const moonrt_##P##mat_ *b);                        \
  void moonrt_##P##laswp(int32_t forward, const moonrt_##P##mat_ *a,           \
                         const moonrt_memref_i32_1d *ipiv);                    \
  void moonrt_##P##potrf_adjoint(int32_t lower, const moonrt_##P##mat_ *l,     \
                                 const moonrt_##P##mat_ *g);

/* Outputs are written through their descriptors. */
MOONRT_DECLARE_BLAS_(s, f32, float)
MOONRT_DECLARE_BLAS_(d, f64, double)

/*
 * The nanoseconds spent inside the routines above, summed over threads,
 * since the process started or the last moonrt_blas_time_reset (a routine
 * that another calls is counted once).
 */
uint64_t moonrt_blas_time_ns(void);

/* Restarts moonrt_blas_time_ns at 0. */
void moonrt_blas_time_reset(void);

/*
 * How many threads OpenBLAS may run a routine on: a gemm of at least 4M
 * multiply-adds (f32; an f64 one counts twice) runs on that many, a smaller one on one thread (waking
 * OpenBLAS's threads costs more than they gain there). 0 keeps OpenBLAS's
 * own count (all cores, or $OPENBLAS_NUM_THREADS). moonc calls it at
 * start: with 0, or with the core count under --parallel.
 */
void moonrt_set_blas_threads(int threads);

/* ---------------------------------------------------------------------------
 * GPU (docs/gpu-runtime.md)
 *
 * moonrt loads the CUDA driver (libcuda.so.1, or $MOONRT_CUDA_LIBRARY) with
 * dlopen at the first GPU call; no CUDA toolkit is needed to build or link.
 * Without a driver every function below except moonrt_gpu_available and
 * mgpuSetDefaultDevice returns NULL, false or nothing and records
 * "no CUDA driver found (libcuda.so.1 could not be loaded: ...)"; a driver
 * error is recorded as "cuLaunchKernel: CUDA_ERROR_INVALID_VALUE: invalid
 * argument" (the driver function, the error's name and description).
 * Device addresses are passed as void *.
 * ------------------------------------------------------------------------ */

/* Whether a CUDA driver is loaded and sees a device; records no error. */
bool moonrt_gpu_available(void);

/* Writes the device's name, NUL-terminated (truncated to len - 1 bytes). */
bool moonrt_gpu_device_name(char *buf, size_t len);

/* Allocates device memory; NULL on failure (and for 0 bytes, no error). */
void *moonrt_gpu_alloc(size_t bytes);

/* Frees memory from moonrt_gpu_alloc or mgpuMemAlloc; NULL is ignored. */
void moonrt_gpu_free(void *device_ptr);

/* Synchronous copies between host and device; false on failure. */
bool moonrt_gpu_copy_to_device(void *device_dst, const void *host_src,
                               size_t bytes);
bool moonrt_gpu_copy_to_host(void *host_dst, const void *device_src,
                             size_t bytes);

/* Waits for all the device's work; false on failure (a faulted kernel). */
bool moonrt_gpu_synchronize(void);

/*
 * The MLIR GPU runtime ABI that MLIR 22's gpu-to-llvm host code calls, with
 * the signatures of mlir/lib/ExecutionEngine/CudaRuntimeWrappers.cpp. A
 * module, function, stream or event handle is NULL after a failed call; a
 * later call on that NULL handle does nothing and keeps the first error.
 */
void *mgpuModuleLoad(void *data, size_t gpu_blob_size); /* cubin, fatbin */
void *mgpuModuleLoadJIT(void *data, int opt_level);     /* PTX */
void mgpuModuleUnload(void *module);
void *mgpuModuleGetFunction(void *module, const char *name);
void mgpuLaunchKernel(void *function, intptr_t grid_x, intptr_t grid_y,
                      intptr_t grid_z, intptr_t block_x, intptr_t block_y,
                      intptr_t block_z, int32_t smem, void *stream,
                      void **params, void **extra, size_t params_count);
void *mgpuStreamCreate(void);
void mgpuStreamDestroy(void *stream);
void mgpuStreamSynchronize(void *stream);
void mgpuStreamWaitEvent(void *stream, void *event);
void *mgpuEventCreate(void);
void mgpuEventDestroy(void *event);
void mgpuEventSynchronize(void *event);
void mgpuEventRecord(void *event, void *stream);
void *mgpuMemAlloc(uint64_t size_bytes, void *stream, bool is_host_shared);
void mgpuMemFree(void *ptr, void *stream);
void mgpuMemcpy(void *dst, void *src, size_t size_bytes, void *stream);
void mgpuMemset32(void *dst, unsigned int value, size_t count, void *stream);
void mgpuMemset16(void *dst, unsigned short value, size_t count, void *stream);
void mgpuMemHostRegister(void *ptr, uint64_t size_bytes);
/* descriptor: a ranked memref descriptor of rank `rank`, dense row-major. */
void mgpuMemHostRegisterMemRef(int64_t rank, void *descriptor,
                               int64_t element_size_bytes);
void mgpuMemHostUnregister(void *ptr);
void mgpuMemHostUnregisterMemRef(int64_t rank, void *descriptor,
                                 int64_t element_size_bytes);
/* Chooses the device; only before the first GPU call; records no error. */
void mgpuSetDefaultDevice(int32_t device);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* MOONRT_H */

/* abi_check.c: checks moonrt.h's layouts and drives the C API from C. */

#include "moonrt.h"

#include <stdio.h>
#include <string.h>

/* Compile-time assertion that works in C99 and C++. */
#define CHECK_STATIC(NAME, COND) typedef char NAME[(COND) ? 1 : -1]

CHECK_STATIC(f64_2d_size, sizeof(moonrt_memref_f64_2d) == 56);
CHECK_STATIC(f64_2d_sizes, offsetof(moonrt_memref_f64_2d, sizes) == 24);
CHECK_STATIC(f64_2d_strides, offsetof(moonrt_memref_f64_2d, strides) == 40);
CHECK_STATIC(f32_0d_size, sizeof(moonrt_memref_f32_0d) == 24);
CHECK_STATIC(i1_4d_size, sizeof(moonrt_memref_i1_4d) == 24 + 64);
CHECK_STATIC(index_1d_size, sizeof(moonrt_memref_index_1d) == 40);
CHECK_STATIC(unranked_size, sizeof(moonrt_unranked_memref) == 16);

/* A user-defined descriptor through the public macros. */
MOONRT_MEMREF_TYPE(my_memref_u8_5d, unsigned char, 5);
CHECK_STATIC(u8_5d_size, sizeof(my_memref_u8_5d) == 24 + 80);

/* Reports a failed check and returns 1. */
static int fail(const char *what) {
  printf("FAILED: %s\n", what);
  return 1;
}

int main(void) {
  /* Constructors and element access. */
  double a[12], b[12];
  int i, j;
  moonrt_memref_f64_2d ma, mt, mb;
  moonrt_unranked_memref src, dst;
  moonrt_memref_i32_3d m3;
  int32_t c[24];
  moonrt_arena *arena;
  void *p, *q;
  const char *error;

  for (i = 0; i < 12; i++) {
    a[i] = i;
    b[i] = -1;
  }
  ma = moonrt_memref_f64_2d_from(a, 3, 4);
  if (ma.strides[0] != 4 || ma.strides[1] != 1 || MOONRT_AT2(ma, 2, 1) != 9)
    return fail("moonrt_memref_f64_2d_from");
  m3 = moonrt_memref_i32_3d_from(c, 2, 3, 4);
  MOONRT_AT3(m3, 1, 2, 3) = 7;
  if (m3.strides[0] != 12 || m3.strides[1] != 4 || c[23] != 7)
    return fail("moonrt_memref_i32_3d_from");

  /* memrefCopy from a transposed view, as MLIR calls it. */
  mt = ma;
  mt.sizes[0] = 4;
  mt.sizes[1] = 3;
  mt.strides[0] = 1;
  mt.strides[1] = 4;
  mb = moonrt_memref_f64_2d_from(b, 4, 3);
  src.rank = 2;
  src.descriptor = &mt;
  dst.rank = 2;
  dst.descriptor = &mb;
  memrefCopy((int64_t)sizeof(double), &src, &dst);
  for (i = 0; i < 4; i++)
    for (j = 0; j < 3; j++)
      if (MOONRT_AT2(mb, i, j) != MOONRT_AT2(ma, j, i))
        return fail("memrefCopy");

  /* The arena and the last error. */
  moonrt_clear_error();
  arena = moonrt_arena_new(0);
  p = moonrt_arena_push(arena, 24, 8);
  q = moonrt_arena_push(arena, 1000, 64);
  if (!p || !q || (uintptr_t)q % 64 != 0)
    return fail("moonrt_arena_push");
  if (moonrt_arena_bytes_in_use(arena) != 1024)
    return fail("moonrt_arena_bytes_in_use");
  if (moonrt_arena_pop(arena, 1000, 64) != q ||
      moonrt_arena_pop(arena, 24, 8) != p)
    return fail("moonrt_arena_pop");
  if (moonrt_last_error() != NULL)
    return fail("no error expected");
  if (moonrt_arena_pop(arena, 24, 8) != NULL)
    return fail("over-pop returns NULL");
  error = moonrt_last_error();
  if (!error || strstr(error, "popped more than was pushed") == NULL)
    return fail("over-pop error text");
  if (moonrt_arena_peak_bytes(arena) != 1024)
    return fail("moonrt_arena_peak_bytes");
  moonrt_arena_reset(arena);
  moonrt_arena_free(arena);

  /* The default tape: LIFO per value size, peak bytes, empty pops. */
  moonrt_clear_error();
  moonrt_tape_reset_peak();
  for (i = 0; i < 1000; i++) {
    moonrt_tape_push_f64(i + 0.5);
    moonrt_tape_push_f32((float)i);
    moonrt_tape_push_i64(-i);
  }
  moonrt_tape_note_alloc(64);
  if (moonrt_tape_bytes_in_use() != 1000 * 20 + 64)
    return fail("moonrt_tape_bytes_in_use");
  moonrt_tape_note_free(64);
  for (i = 999; i >= 0; i--)
    if (moonrt_tape_pop_i64() != -i || moonrt_tape_pop_f32() != (float)i ||
        moonrt_tape_pop_f64() != i + 0.5)
      return fail("moonrt_tape_pop_*");
  if (moonrt_tape_peak_bytes() != 1000 * 20 + 64 ||
      moonrt_tape_bytes_in_use() != 0 || moonrt_last_error() != NULL)
    return fail("moonrt_tape_peak_bytes");
  moonrt_tape_reset_peak();
  if (moonrt_tape_peak_bytes() != 0)
    return fail("moonrt_tape_reset_peak");
  if (moonrt_tape_pop_f64() != 0.0 || moonrt_last_error() == NULL ||
      strstr(moonrt_last_error(), "the tape is empty") == NULL)
    return fail("popping an empty tape");

  /* The cursor, as compiled code uses it: a push through it is popped by
   * a call, and the push the cursor saw moved its top by 8. */
  {
    moonrt_tape_block_cursor *cursor = moonrt_tape_cursor();
    double seven = 7.0;
    moonrt_clear_error();
    moonrt_tape_push_f64(1.0);
    if (cursor != moonrt_tape_cursor() || cursor->top == cursor->end)
      return fail("moonrt_tape_cursor");
    memcpy(cursor->top, &seven, sizeof seven);
    cursor->top += 8;
    if (moonrt_tape_bytes_in_use() != 16 || moonrt_tape_pop_f64() != 7.0 ||
        moonrt_tape_pop_f64() != 1.0 || cursor->top != cursor->base)
      return fail("pushing through moonrt_tape_cursor");
  }

  /* Aligned allocation and errors set by compiled code. */
  p = moonrt_aligned_alloc(256, 0);
  if (!p || (uintptr_t)p % 256 != 0)
    return fail("moonrt_aligned_alloc");
  moonrt_aligned_free(p);
  moonrt_set_error("from compiled code");
  if (strcmp(moonrt_last_error(), "from compiled code") != 0)
    return fail("moonrt_set_error");

  puts("abi_check: ok");
  return 0;
}

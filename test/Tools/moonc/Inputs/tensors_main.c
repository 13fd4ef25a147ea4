/* Calls the functions of tensors.mlir through the header moonc writes:
 * tensor arguments are memref descriptors, a rank-0 float tensor result a
 * scalar, other tensor results descriptors of buffers the callee
 * allocated, which the caller frees. */
#include "tensors.h"
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  float data[4] = {1, 2, 3, 4};
  moonrt_memref_f32_1d x = {data, data, 0, {4}, {1}};
  scale_results scaled;
  scale(&scaled, &x, 0.5f);
  printf("scale = %g %g %g %g\n", scaled.r0.aligned[0], scaled.r0.aligned[1],
         scaled.r0.aligned[2], scaled.r0.aligned[3]);
  free(scaled.r0.allocated);
  printf("loss = %g\n", loss(&x));
  grad_results g;
  grad(&g, &x);
  printf("grad = %g %g %g %g\n", g.r0.aligned[0], g.r0.aligned[1],
         g.r0.aligned[2], g.r0.aligned[3]);
  free(g.r0.allocated);
  printf("x = %g %g %g %g\n", data[0], data[1], data[2], data[3]);
  return 0;
}

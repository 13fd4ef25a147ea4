// Vector forward mode (`moon.jvp ... width 2`) through BLAS and LAPACK
// calls: each direction runs the routine's width-1 rule on its slice of the
// shadows (rules/blas/lanes.rs, forward_by_lane). The two lanes must equal two
// width-1 JVPs in the same directions, and the first direction is checked
// against finite differences by `moonc check` on @f.
//
// RUN: moonc run %s --entry lanes --args '[[[4, 1], [1, 3]], [0.5, -1], 0.8]' | FileCheck %s
// CHECK: {"results": [{{[-0-9.e]+}}, [[L0:[-0-9.e]+]], [[L1:[-0-9.e]+]], [[L0]], [[L1]]],
// RUN: moonc check %s --entry f --args '[[[4, 1], [1, 3]], [0.5, -1], 0.8]' | FileCheck %s --check-prefix=CHECK-FD
// CHECK-FD: check: PASS

!m = memref<?x?xf64, strided<[?, ?], offset: ?>>
!v = memref<?xf64, strided<[?], offset: ?>>
func.func private @moonrt_dgemv(i32, f64, !m, !v, f64, !v)
func.func private @moonrt_dpotrf(i32, !m) -> i32
func.func private @moonrt_dtrsv(i32, i32, i32, !m, !v)
func.func private @moonrt_ddot(!v, !v) -> f64

// y = alpha A x, L L^T = A, then |L^-1 y|^2.
func.func @f(%a: memref<2x2xf64>, %x: memref<2xf64>, %alpha: f64) -> f64 {
  %n = arith.constant 0 : i32
  %lower = arith.constant 1 : i32
  %zero = arith.constant 0.0 : f64
  %am = memref.cast %a : memref<2x2xf64> to !m
  %xv = memref.cast %x : memref<2xf64> to !v
  %y = memref.alloc() : memref<2xf64>
  %yv = memref.cast %y : memref<2xf64> to !v
  func.call @moonrt_dgemv(%n, %alpha, %am, %xv, %zero, %yv) : (i32, f64, !m, !v, f64, !v) -> ()
  %l = memref.alloc() : memref<2x2xf64>
  memref.copy %a, %l : memref<2x2xf64> to memref<2x2xf64>
  %lm = memref.cast %l : memref<2x2xf64> to !m
  %info = func.call @moonrt_dpotrf(%lower, %lm) : (i32, !m) -> i32
  func.call @moonrt_dtrsv(%lower, %n, %n, %lm, %yv) : (i32, i32, i32, !m, !v) -> ()
  %r = func.call @moonrt_ddot(%yv, %yv) : (!v, !v) -> f64
  memref.dealloc %y : memref<2xf64>
  memref.dealloc %l : memref<2x2xf64>
  return %r : f64
}

memref.global "private" constant @da : memref<2x2x2xf64> = dense<[[[1.0, 0.5], [0.5, 2.0]], [[-1.0, 0.25], [0.25, 0.5]]]>
memref.global "private" constant @dx : memref<2x2xf64> = dense<[[1.0, -1.0], [0.5, 2.0]]>
memref.global "private" constant @da0 : memref<2x2xf64> = dense<[[1.0, 0.5], [0.5, 2.0]]>
memref.global "private" constant @da1 : memref<2x2xf64> = dense<[[-1.0, 0.25], [0.25, 0.5]]>
memref.global "private" constant @dx0 : memref<2xf64> = dense<[1.0, -1.0]>
memref.global "private" constant @dx1 : memref<2xf64> = dense<[0.5, 2.0]>

// f and its derivative in two directions (dA, dx, dalpha): by one width-2
// JVP (lanes 0 and 1), then by two width-1 JVPs.
func.func @lanes(%a: memref<2x2xf64>, %x: memref<2xf64>, %alpha: f64) -> (f64, f64, f64, f64, f64) {
  %half = arith.constant 0.5 : f64
  %minus = arith.constant -1.0 : f64
  %dalpha = vector.from_elements %half, %minus : vector<2xf64>
  %gda = memref.get_global @da : memref<2x2x2xf64>
  %gdx = memref.get_global @dx : memref<2x2xf64>
  %da = memref.alloc() : memref<2x2x2xf64>
  %dx = memref.alloc() : memref<2x2xf64>
  memref.copy %gda, %da : memref<2x2x2xf64> to memref<2x2x2xf64>
  memref.copy %gdx, %dx : memref<2x2xf64> to memref<2x2xf64>
  %r, %dr = moon.jvp @f(%a, %x, %alpha, %da, %dx, %dalpha) width 2
      : (memref<2x2xf64>, memref<2xf64>, f64, memref<2x2x2xf64>, memref<2x2xf64>, vector<2xf64>) -> (f64, vector<2xf64>)
  %l0 = vector.extract %dr[0] : f64 from vector<2xf64>
  %l1 = vector.extract %dr[1] : f64 from vector<2xf64>
  %gda0 = memref.get_global @da0 : memref<2x2xf64>
  %gdx0 = memref.get_global @dx0 : memref<2xf64>
  %da0 = memref.alloc() : memref<2x2xf64>
  %dx0 = memref.alloc() : memref<2xf64>
  memref.copy %gda0, %da0 : memref<2x2xf64> to memref<2x2xf64>
  memref.copy %gdx0, %dx0 : memref<2xf64> to memref<2xf64>
  %r0, %d0 = moon.jvp @f(%a, %x, %alpha, %da0, %dx0, %half)
      : (memref<2x2xf64>, memref<2xf64>, f64, memref<2x2xf64>, memref<2xf64>, f64) -> (f64, f64)
  %gda1 = memref.get_global @da1 : memref<2x2xf64>
  %gdx1 = memref.get_global @dx1 : memref<2xf64>
  %da1 = memref.alloc() : memref<2x2xf64>
  %dx1 = memref.alloc() : memref<2xf64>
  memref.copy %gda1, %da1 : memref<2x2xf64> to memref<2x2xf64>
  memref.copy %gdx1, %dx1 : memref<2xf64> to memref<2xf64>
  %r1, %d1 = moon.jvp @f(%a, %x, %alpha, %da1, %dx1, %minus)
      : (memref<2x2xf64>, memref<2xf64>, f64, memref<2x2xf64>, memref<2xf64>, f64) -> (f64, f64)
  memref.dealloc %da : memref<2x2x2xf64>
  memref.dealloc %dx : memref<2x2xf64>
  memref.dealloc %da0 : memref<2x2xf64>
  memref.dealloc %dx0 : memref<2xf64>
  memref.dealloc %da1 : memref<2x2xf64>
  memref.dealloc %dx1 : memref<2xf64>
  return %r, %l0, %l1, %d0, %d1 : f64, f64, f64, f64, f64
}

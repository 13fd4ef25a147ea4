// Hessian benchmark (see README.md): the extended Rosenbrock function, its
// value and gradient (moonc bench's grad_ns), and its full Hessian by
// Hessian-vector products eight columns at a time (moon.hvp width 8:
// forward over reverse).

// sum_i 100 (x[i+1] - x[i]^2)^2 + (1 - x[i])^2
func.func @rosenbrock(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %m = arith.subi %n, %c1 : index
  %z = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %hundred = arith.constant 100.0 : f64
  %s = scf.for %i = %c0 to %m step %c1 iter_args(%acc = %z) -> f64 {
    %ip = arith.addi %i, %c1 : index
    %a = memref.load %x[%i] : memref<?xf64>
    %b = memref.load %x[%ip] : memref<?xf64>
    %a2 = arith.mulf %a, %a : f64
    %d = arith.subf %b, %a2 : f64
    %d2 = arith.mulf %d, %d : f64
    %t1 = arith.mulf %hundred, %d2 : f64
    %e = arith.subf %one, %a : f64
    %e2 = arith.mulf %e, %e : f64
    %t = arith.addf %t1, %e2 : f64
    %r = arith.addf %acc, %t : f64
    scf.yield %r : f64
  }
  return %s : f64
}

// H (n x n) = the Hessian of @rosenbrock at x, eight columns per moon.hvp
// (the Hessian is symmetric: the product with e_j is row j). Returns H[0][0].
func.func @rosenbrock_hessian(%x: memref<?xf64>, %h: memref<?x?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %n = memref.dim %x, %c0 : memref<?xf64>
  %v = memref.alloc(%n) : memref<8x?xf64>
  %out = memref.alloc(%n) : memref<8x?xf64>
  scf.for %j0 = %c0 to %n step %c8 {
    linalg.fill ins(%zero : f64) outs(%v : memref<8x?xf64>)
    linalg.fill ins(%zero : f64) outs(%out : memref<8x?xf64>)
    scf.for %k = %c0 to %c8 step %c1 {
      %j = arith.addi %j0, %k : index
      %in = arith.cmpi slt, %j, %n : index
      scf.if %in {
        memref.store %one, %v[%k, %j] : memref<8x?xf64>
      }
    }
    moon.hvp @rosenbrock(%x, %v, %out) width 8
        : (memref<?xf64>, memref<8x?xf64>, memref<8x?xf64>) -> ()
    scf.for %k = %c0 to %c8 step %c1 {
      %j = arith.addi %j0, %k : index
      %in = arith.cmpi slt, %j, %n : index
      scf.if %in {
        scf.for %i = %c0 to %n step %c1 {
          %e = memref.load %out[%k, %i] : memref<8x?xf64>
          memref.store %e, %h[%j, %i] : memref<?x?xf64>
        }
      }
    }
  }
  memref.dealloc %v : memref<8x?xf64>
  memref.dealloc %out : memref<8x?xf64>
  %h00 = memref.load %h[%c0, %c0] : memref<?x?xf64>
  return %h00 : f64
}

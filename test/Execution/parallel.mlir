// --moon-parallel-min-trips runs independent loops on all cores (OpenMP):
// results match the sequential ones, and derivatives pass `moonc check`
// with every loop of 1 or more iterations parallel (64 chunks, most of
// them empty or short here).
// RUN: moonc --moon-parallel-min-trips 1 run %s --entry stats --args '[100000]' | FileCheck %s --check-prefix=STATS
// RUN: moonc run %s --entry stats --args '[100000]' | FileCheck %s --check-prefix=STATS
// STATS: {"results": [4999950000.0, 99999.0, 100000],
// RUN: moonc --parallel run %s --entry reverse_double --args '[[1, 2, 3, 4, 5], [0, 0, 0, 0, 0]]' | FileCheck %s --check-prefix=REV
// RUN: moonc --moon-parallel-min-trips 1 run %s --entry reverse_double --args '[[1, 2, 3, 4, 5], [0, 0, 0, 0, 0]]' | FileCheck %s --check-prefix=REV
// REV: [10.0, 8.0, 6.0, 4.0, 2.0]
// RUN: moonc --moon-parallel-min-trips 1 check %s --entry lse --args '[[-1.048, 0.177, -0.520, 0.416, 0.503, -1.738, -1.947, 1.350, -0.963, -1.063, 1.983, -0.119, 1.346, -0.095, 0.556, -1.398, 0.539, 1.472, 0.093, 0.965, 0.686, -1.744, 1.033, 0.364, -0.795, -1.876, 1.462, -0.109, 0.875, 1.515, 0.857, 1.684, -0.420, 1.204, -0.222, 1.742, 1.515, -1.610, -1.456, -1.132, 1.862, -0.255, 0.507, -0.796, 0.029, -0.457, -0.596, 0.340, 0.337, 1.617, 0.728, 1.716, 1.426, 1.964, 0.685, -1.348, 1.443, 1.859, 1.619, 0.276, 0.855, -1.156, 1.326, 0.294, -0.860, -1.746, 1.416, 1.959, -1.646, 1.202, -0.358, -1.397, -0.824, 1.075, 1.491, -1.823, 0.458, -1.820, 0.874, -0.676, 1.524, 1.923, 0.022, 1.994, -0.761, -1.692, 0.399, -1.874, -1.210, -0.368, 0.442, -1.375, -1.830, 1.471, -0.745, 1.835, 1.587, -0.489, -0.158, 0.080, 0.576, 0.383, 0.237, 0.481, 1.762, 0.028, -0.275, 0.881, -1.049, -0.796, 1.911, 0.085, 0.194, -1.954, -0.339, 0.320, -1.920, 0.463, 0.529, -1.760, 0.509, -0.135, 0.717, -0.590, 0.828, 0.952, -1.911, -1.758, 0.704, 1.853, -0.996, -0.175, 0.371, -0.720, -0.544, -0.749, -0.523, 0.382, -0.798, -0.491, 1.089, -1.892, 0.277, 0.941, -0.760, -1.110, 1.215, -1.045, -1.250, -0.259]]' | FileCheck %s --check-prefix=CHECK
// RUN: moonc --moon-parallel-min-trips 1 --moon-ndual-max-width 0 check %s --entry lse --args '[[-1.048, 0.177, -0.520, 0.416, 0.503, -1.738, -1.947, 1.350, -0.963, -1.063, 1.983, -0.119, 1.346, -0.095, 0.556, -1.398, 0.539, 1.472, 0.093, 0.965, 0.686, -1.744, 1.033, 0.364, -0.795, -1.876, 1.462, -0.109, 0.875, 1.515, 0.857, 1.684, -0.420, 1.204, -0.222, 1.742, 1.515, -1.610, -1.456, -1.132, 1.862, -0.255, 0.507, -0.796, 0.029, -0.457, -0.596, 0.340, 0.337, 1.617, 0.728, 1.716, 1.426, 1.964, 0.685, -1.348, 1.443, 1.859, 1.619, 0.276, 0.855, -1.156, 1.326, 0.294, -0.860, -1.746, 1.416, 1.959, -1.646, 1.202, -0.358, -1.397, -0.824, 1.075, 1.491, -1.823, 0.458, -1.820, 0.874, -0.676, 1.524, 1.923, 0.022, 1.994, -0.761, -1.692, 0.399, -1.874, -1.210, -0.368, 0.442, -1.375, -1.830, 1.471, -0.745, 1.835, 1.587, -0.489, -0.158, 0.080, 0.576, 0.383, 0.237, 0.481, 1.762, 0.028, -0.275, 0.881, -1.049, -0.796, 1.911, 0.085, 0.194, -1.954, -0.339, 0.320, -1.920, 0.463, 0.529, -1.760, 0.509, -0.135, 0.717, -0.590, 0.828, 0.952, -1.911, -1.758, 0.704, 1.853, -0.996, -0.175, 0.371, -0.720, -0.544, -0.749, -0.523, 0.382, -0.798, -0.491, 1.089, -1.892, 0.277, 0.941, -0.760, -1.110, 1.215, -1.045, -1.250, -0.259]]' | FileCheck %s --check-prefix=CHECK
// CHECK: check: PASS

// sum, max and count of 0, 1, ..., n-1, written by an elementwise loop:
// exact in f64, whatever the order of the additions.
func.func @stats(%n: index) -> (f64, f64, i64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f64
  %zi = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %ninf = arith.constant 0xFFF0000000000000 : f64
  %x = memref.alloc(%n) : memref<?xf64>
  scf.for %i = %c0 to %n step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f64
    memref.store %f, %x[%i] : memref<?xf64>
  }
  %s, %m, %k = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z, %mx = %ninf, %cnt = %zi) -> (f64, f64, i64) {
    %v = memref.load %x[%i] : memref<?xf64>
    %a = arith.addf %acc, %v fastmath<reassoc> : f64
    %b = arith.maximumf %mx, %v : f64
    %c = arith.addi %cnt, %one : i64
    scf.yield %a, %b, %c : f64, f64, i64
  }
  memref.dealloc %x : memref<?xf64>
  return %s, %m, %k : f64, f64, i64
}
// y[n-1-i] = 2 x[i], between two arguments.
func.func @reverse_double(%x: memref<?xf64>, %y: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %last = arith.subi %n, %c1 : index
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %x[%i] : memref<?xf64>
    %d = arith.addf %v, %v : f64
    %j = arith.subi %last, %i : index
    memref.store %d, %y[%j] : memref<?xf64>
  }
  return
}
// GradBench's lse: a max, then a reassociable sum of exponentials.
func.func @lse(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %ninf = arith.constant 0xFFF0000000000000 : f64
  %z = arith.constant 0.0 : f64
  %m = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %ninf) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %a = arith.maximumf %acc, %v : f64
    scf.yield %a : f64
  }
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %d = arith.subf %v, %m : f64
    %e = math.exp %d : f64
    %a = arith.addf %acc, %e fastmath<reassoc> : f64
    scf.yield %a : f64
  }
  %l = math.log %s : f64
  %r = arith.addf %l, %m : f64
  return %r : f64
}

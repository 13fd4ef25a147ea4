// The arith float ops frontends emit, in f64 and f32, compiled by
// moon-cpu-pipeline and run: compares with every predicate, max/min at NaN
// and signed zeros, arithmetic, select, and the conversions between
// floats, integers and bits. Values are checked to 12 significant digits
// (f64) or 8 (f32); i1 prints as 0 or 1.

// cmpf with each predicate, in the order false, oeq, ogt, oge, olt, ole,
// one, ord, ueq, ugt, uge, ult, ule, une, uno, true (f64).
// RUN: moonc run %s --entry cmpf_f64 --args '[1.0, 2.0]' | FileCheck %s --check-prefix=CMPF64A
// CMPF64A: {"results": [0,
// CMPF64A-SAME: {{ }}0,
// CMPF64A-SAME: {{ }}0,
// CMPF64A-SAME: {{ }}0,
// CMPF64A-SAME: {{ }}1,
// CMPF64A-SAME: {{ }}1,
// CMPF64A-SAME: {{ }}1,
// CMPF64A-SAME: {{ }}1,
// CMPF64A-SAME: {{ }}0,
// CMPF64A-SAME: {{ }}0,
// CMPF64A-SAME: {{ }}0,
// CMPF64A-SAME: {{ }}1,
// CMPF64A-SAME: {{ }}1,
// CMPF64A-SAME: {{ }}1,
// CMPF64A-SAME: {{ }}0,
// CMPF64A-SAME: {{ }}1]
// RUN: moonc run %s --entry cmpf_f64 --args '[2.0, 2.0]' | FileCheck %s --check-prefix=CMPF64B
// CMPF64B: {"results": [0,
// CMPF64B-SAME: {{ }}1,
// CMPF64B-SAME: {{ }}0,
// CMPF64B-SAME: {{ }}1,
// CMPF64B-SAME: {{ }}0,
// CMPF64B-SAME: {{ }}1,
// CMPF64B-SAME: {{ }}0,
// CMPF64B-SAME: {{ }}1,
// CMPF64B-SAME: {{ }}1,
// CMPF64B-SAME: {{ }}0,
// CMPF64B-SAME: {{ }}1,
// CMPF64B-SAME: {{ }}0,
// CMPF64B-SAME: {{ }}1,
// CMPF64B-SAME: {{ }}0,
// CMPF64B-SAME: {{ }}0,
// CMPF64B-SAME: {{ }}1]
// RUN: moonc run %s --entry cmpf_f64 --args '[2.0, 1.0]' | FileCheck %s --check-prefix=CMPF64C
// CMPF64C: {"results": [0,
// CMPF64C-SAME: {{ }}0,
// CMPF64C-SAME: {{ }}1,
// CMPF64C-SAME: {{ }}1,
// CMPF64C-SAME: {{ }}0,
// CMPF64C-SAME: {{ }}0,
// CMPF64C-SAME: {{ }}1,
// CMPF64C-SAME: {{ }}1,
// CMPF64C-SAME: {{ }}0,
// CMPF64C-SAME: {{ }}1,
// CMPF64C-SAME: {{ }}1,
// CMPF64C-SAME: {{ }}0,
// CMPF64C-SAME: {{ }}0,
// CMPF64C-SAME: {{ }}1,
// CMPF64C-SAME: {{ }}0,
// CMPF64C-SAME: {{ }}1]
func.func @cmpf_f64(%a: f64, %b: f64) -> (i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1) {
  %false = arith.cmpf false, %a, %b : f64
  %oeq = arith.cmpf oeq, %a, %b : f64
  %ogt = arith.cmpf ogt, %a, %b : f64
  %oge = arith.cmpf oge, %a, %b : f64
  %olt = arith.cmpf olt, %a, %b : f64
  %ole = arith.cmpf ole, %a, %b : f64
  %one = arith.cmpf one, %a, %b : f64
  %ord = arith.cmpf ord, %a, %b : f64
  %ueq = arith.cmpf ueq, %a, %b : f64
  %ugt = arith.cmpf ugt, %a, %b : f64
  %uge = arith.cmpf uge, %a, %b : f64
  %ult = arith.cmpf ult, %a, %b : f64
  %ule = arith.cmpf ule, %a, %b : f64
  %une = arith.cmpf une, %a, %b : f64
  %uno = arith.cmpf uno, %a, %b : f64
  %true = arith.cmpf true, %a, %b : f64
  return %false, %oeq, %ogt, %oge, %olt, %ole, %one, %ord, %ueq, %ugt, %uge, %ult, %ule, %une, %uno, %true : i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1
}

// The same with NaN (0 / 0, computed at run time so that LLVM cannot fold
// the compares) as the left, then the right operand: only the unordered
// predicates (and true) hold (f64).
// RUN: moonc run %s --entry cmpf_nan_f64 --args '[2.0, 0.0]' | FileCheck %s --check-prefix=CMPFNAN64
// CMPFNAN64: {"results": [0,
// CMPFNAN64-SAME: {{ }}0,
// CMPFNAN64-SAME: {{ }}0,
// CMPFNAN64-SAME: {{ }}0,
// CMPFNAN64-SAME: {{ }}0,
// CMPFNAN64-SAME: {{ }}0,
// CMPFNAN64-SAME: {{ }}0,
// CMPFNAN64-SAME: {{ }}0,
// CMPFNAN64-SAME: {{ }}1,
// CMPFNAN64-SAME: {{ }}1,
// CMPFNAN64-SAME: {{ }}1,
// CMPFNAN64-SAME: {{ }}1,
// CMPFNAN64-SAME: {{ }}1,
// CMPFNAN64-SAME: {{ }}1,
// CMPFNAN64-SAME: {{ }}1,
// CMPFNAN64-SAME: {{ }}1,
// CMPFNAN64-SAME: {{ }}0,
// CMPFNAN64-SAME: {{ }}0,
// CMPFNAN64-SAME: {{ }}0,
// CMPFNAN64-SAME: {{ }}0,
// CMPFNAN64-SAME: {{ }}0,
// CMPFNAN64-SAME: {{ }}0,
// CMPFNAN64-SAME: {{ }}0,
// CMPFNAN64-SAME: {{ }}0,
// CMPFNAN64-SAME: {{ }}1,
// CMPFNAN64-SAME: {{ }}1,
// CMPFNAN64-SAME: {{ }}1,
// CMPFNAN64-SAME: {{ }}1,
// CMPFNAN64-SAME: {{ }}1,
// CMPFNAN64-SAME: {{ }}1,
// CMPFNAN64-SAME: {{ }}1,
// CMPFNAN64-SAME: {{ }}1]
func.func @cmpf_nan_f64(%b: f64, %zero: f64) -> (i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1) {
  %nan = arith.divf %zero, %zero : f64
  %l:16 = func.call @cmpf_f64(%nan, %b) : (f64, f64) -> (i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1)
  %r:16 = func.call @cmpf_f64(%b, %nan) : (f64, f64) -> (i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1)
  return %l#0, %l#1, %l#2, %l#3, %l#4, %l#5, %l#6, %l#7, %l#8, %l#9, %l#10, %l#11, %l#12, %l#13, %l#14, %l#15, %r#0, %r#1, %r#2, %r#3, %r#4, %r#5, %r#6, %r#7, %r#8, %r#9, %r#10, %r#11, %r#12, %r#13, %r#14, %r#15 : i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1
}

// cmpf with each predicate, in the order false, oeq, ogt, oge, olt, ole,
// one, ord, ueq, ugt, uge, ult, ule, une, uno, true (f32).
// RUN: moonc run %s --entry cmpf_f32 --args '[1.0, 2.0]' | FileCheck %s --check-prefix=CMPF32A
// CMPF32A: {"results": [0,
// CMPF32A-SAME: {{ }}0,
// CMPF32A-SAME: {{ }}0,
// CMPF32A-SAME: {{ }}0,
// CMPF32A-SAME: {{ }}1,
// CMPF32A-SAME: {{ }}1,
// CMPF32A-SAME: {{ }}1,
// CMPF32A-SAME: {{ }}1,
// CMPF32A-SAME: {{ }}0,
// CMPF32A-SAME: {{ }}0,
// CMPF32A-SAME: {{ }}0,
// CMPF32A-SAME: {{ }}1,
// CMPF32A-SAME: {{ }}1,
// CMPF32A-SAME: {{ }}1,
// CMPF32A-SAME: {{ }}0,
// CMPF32A-SAME: {{ }}1]
// RUN: moonc run %s --entry cmpf_f32 --args '[2.0, 2.0]' | FileCheck %s --check-prefix=CMPF32B
// CMPF32B: {"results": [0,
// CMPF32B-SAME: {{ }}1,
// CMPF32B-SAME: {{ }}0,
// CMPF32B-SAME: {{ }}1,
// CMPF32B-SAME: {{ }}0,
// CMPF32B-SAME: {{ }}1,
// CMPF32B-SAME: {{ }}0,
// CMPF32B-SAME: {{ }}1,
// CMPF32B-SAME: {{ }}1,
// CMPF32B-SAME: {{ }}0,
// CMPF32B-SAME: {{ }}1,
// CMPF32B-SAME: {{ }}0,
// CMPF32B-SAME: {{ }}1,
// CMPF32B-SAME: {{ }}0,
// CMPF32B-SAME: {{ }}0,
// CMPF32B-SAME: {{ }}1]
// RUN: moonc run %s --entry cmpf_f32 --args '[2.0, 1.0]' | FileCheck %s --check-prefix=CMPF32C
// CMPF32C: {"results": [0,
// CMPF32C-SAME: {{ }}0,
// CMPF32C-SAME: {{ }}1,
// CMPF32C-SAME: {{ }}1,
// CMPF32C-SAME: {{ }}0,
// CMPF32C-SAME: {{ }}0,
// CMPF32C-SAME: {{ }}1,
// CMPF32C-SAME: {{ }}1,
// CMPF32C-SAME: {{ }}0,
// CMPF32C-SAME: {{ }}1,
// CMPF32C-SAME: {{ }}1,
// CMPF32C-SAME: {{ }}0,
// CMPF32C-SAME: {{ }}0,
// CMPF32C-SAME: {{ }}1,
// CMPF32C-SAME: {{ }}0,
// CMPF32C-SAME: {{ }}1]
func.func @cmpf_f32(%a: f32, %b: f32) -> (i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1) {
  %false = arith.cmpf false, %a, %b : f32
  %oeq = arith.cmpf oeq, %a, %b : f32
  %ogt = arith.cmpf ogt, %a, %b : f32
  %oge = arith.cmpf oge, %a, %b : f32
  %olt = arith.cmpf olt, %a, %b : f32
  %ole = arith.cmpf ole, %a, %b : f32
  %one = arith.cmpf one, %a, %b : f32
  %ord = arith.cmpf ord, %a, %b : f32
  %ueq = arith.cmpf ueq, %a, %b : f32
  %ugt = arith.cmpf ugt, %a, %b : f32
  %uge = arith.cmpf uge, %a, %b : f32
  %ult = arith.cmpf ult, %a, %b : f32
  %ule = arith.cmpf ule, %a, %b : f32
  %une = arith.cmpf une, %a, %b : f32
  %uno = arith.cmpf uno, %a, %b : f32
  %true = arith.cmpf true, %a, %b : f32
  return %false, %oeq, %ogt, %oge, %olt, %ole, %one, %ord, %ueq, %ugt, %uge, %ult, %ule, %une, %uno, %true : i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1
}

// The same with NaN (0 / 0, computed at run time so that LLVM cannot fold
// the compares) as the left, then the right operand: only the unordered
// predicates (and true) hold (f32).
// RUN: moonc run %s --entry cmpf_nan_f32 --args '[2.0, 0.0]' | FileCheck %s --check-prefix=CMPFNAN32
// CMPFNAN32: {"results": [0,
// CMPFNAN32-SAME: {{ }}0,
// CMPFNAN32-SAME: {{ }}0,
// CMPFNAN32-SAME: {{ }}0,
// CMPFNAN32-SAME: {{ }}0,
// CMPFNAN32-SAME: {{ }}0,
// CMPFNAN32-SAME: {{ }}0,
// CMPFNAN32-SAME: {{ }}0,
// CMPFNAN32-SAME: {{ }}1,
// CMPFNAN32-SAME: {{ }}1,
// CMPFNAN32-SAME: {{ }}1,
// CMPFNAN32-SAME: {{ }}1,
// CMPFNAN32-SAME: {{ }}1,
// CMPFNAN32-SAME: {{ }}1,
// CMPFNAN32-SAME: {{ }}1,
// CMPFNAN32-SAME: {{ }}1,
// CMPFNAN32-SAME: {{ }}0,
// CMPFNAN32-SAME: {{ }}0,
// CMPFNAN32-SAME: {{ }}0,
// CMPFNAN32-SAME: {{ }}0,
// CMPFNAN32-SAME: {{ }}0,
// CMPFNAN32-SAME: {{ }}0,
// CMPFNAN32-SAME: {{ }}0,
// CMPFNAN32-SAME: {{ }}0,
// CMPFNAN32-SAME: {{ }}1,
// CMPFNAN32-SAME: {{ }}1,
// CMPFNAN32-SAME: {{ }}1,
// CMPFNAN32-SAME: {{ }}1,
// CMPFNAN32-SAME: {{ }}1,
// CMPFNAN32-SAME: {{ }}1,
// CMPFNAN32-SAME: {{ }}1,
// CMPFNAN32-SAME: {{ }}1]
func.func @cmpf_nan_f32(%b: f32, %zero: f32) -> (i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1) {
  %nan = arith.divf %zero, %zero : f32
  %l:16 = func.call @cmpf_f32(%nan, %b) : (f32, f32) -> (i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1)
  %r:16 = func.call @cmpf_f32(%b, %nan) : (f32, f32) -> (i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1)
  return %l#0, %l#1, %l#2, %l#3, %l#4, %l#5, %l#6, %l#7, %l#8, %l#9, %l#10, %l#11, %l#12, %l#13, %l#14, %l#15, %r#0, %r#1, %r#2, %r#3, %r#4, %r#5, %r#6, %r#7, %r#8, %r#9, %r#10, %r#11, %r#12, %r#13, %r#14, %r#15 : i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1
}

// maximumf, minimumf, maxnumf, minnumf of (NaN, 1), (1, NaN), (-0, +0),
// (+0, -0), f64, NaN and -0 computed at run time: maximumf/minimumf propagate
// NaN, maxnumf/minnumf return the number; maximumf/minimumf order -0 below
// +0, while maxnumf/minnumf may return either zero.
// RUN: moonc run %s --entry maxmin_f64 --args '[1.0, 0.0]' | FileCheck %s --check-prefix=MAXMIN64
// MAXMIN64: {"results": ["NaN",
// MAXMIN64-SAME: {{ }}"NaN",
// MAXMIN64-SAME: {{ }}1.0,
// MAXMIN64-SAME: {{ }}1.0,
// MAXMIN64-SAME: {{ }}"NaN",
// MAXMIN64-SAME: {{ }}"NaN",
// MAXMIN64-SAME: {{ }}1.0,
// MAXMIN64-SAME: {{ }}1.0,
// MAXMIN64-SAME: {{ }}0.0,
// MAXMIN64-SAME: {{ }}-0.0,
// MAXMIN64-SAME: {{ }}{{-?}}0.0,
// MAXMIN64-SAME: {{ }}{{-?}}0.0,
// MAXMIN64-SAME: {{ }}0.0,
// MAXMIN64-SAME: {{ }}-0.0,
// MAXMIN64-SAME: {{ }}{{-?}}0.0,
// MAXMIN64-SAME: {{ }}{{-?}}0.0]
func.func @maxmin_f64(%x: f64, %pz: f64) -> (f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64) {
  %nan = arith.divf %pz, %pz : f64
  %nz = arith.negf %pz : f64
  %maximumf_nan_x = arith.maximumf %nan, %x : f64
  %minimumf_nan_x = arith.minimumf %nan, %x : f64
  %maxnumf_nan_x = arith.maxnumf %nan, %x : f64
  %minnumf_nan_x = arith.minnumf %nan, %x : f64
  %maximumf_x_nan = arith.maximumf %x, %nan : f64
  %minimumf_x_nan = arith.minimumf %x, %nan : f64
  %maxnumf_x_nan = arith.maxnumf %x, %nan : f64
  %minnumf_x_nan = arith.minnumf %x, %nan : f64
  %maximumf_nz_pz = arith.maximumf %nz, %pz : f64
  %minimumf_nz_pz = arith.minimumf %nz, %pz : f64
  %maxnumf_nz_pz = arith.maxnumf %nz, %pz : f64
  %minnumf_nz_pz = arith.minnumf %nz, %pz : f64
  %maximumf_pz_nz = arith.maximumf %pz, %nz : f64
  %minimumf_pz_nz = arith.minimumf %pz, %nz : f64
  %maxnumf_pz_nz = arith.maxnumf %pz, %nz : f64
  %minnumf_pz_nz = arith.minnumf %pz, %nz : f64
  return %maximumf_nan_x, %minimumf_nan_x, %maxnumf_nan_x, %minnumf_nan_x, %maximumf_x_nan, %minimumf_x_nan, %maxnumf_x_nan, %minnumf_x_nan, %maximumf_nz_pz, %minimumf_nz_pz, %maxnumf_nz_pz, %minnumf_nz_pz, %maximumf_pz_nz, %minimumf_pz_nz, %maxnumf_pz_nz, %minnumf_pz_nz : f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64
}

// maximumf, minimumf, maxnumf, minnumf of (NaN, 1), (1, NaN), (-0, +0),
// (+0, -0), f32, NaN and -0 computed at run time: maximumf/minimumf propagate
// NaN, maxnumf/minnumf return the number; maximumf/minimumf order -0 below
// +0, while maxnumf/minnumf may return either zero.
// RUN: moonc run %s --entry maxmin_f32 --args '[1.0, 0.0]' | FileCheck %s --check-prefix=MAXMIN32
// MAXMIN32: {"results": ["NaN",
// MAXMIN32-SAME: {{ }}"NaN",
// MAXMIN32-SAME: {{ }}1.0,
// MAXMIN32-SAME: {{ }}1.0,
// MAXMIN32-SAME: {{ }}"NaN",
// MAXMIN32-SAME: {{ }}"NaN",
// MAXMIN32-SAME: {{ }}1.0,
// MAXMIN32-SAME: {{ }}1.0,
// MAXMIN32-SAME: {{ }}0.0,
// MAXMIN32-SAME: {{ }}-0.0,
// MAXMIN32-SAME: {{ }}{{-?}}0.0,
// MAXMIN32-SAME: {{ }}{{-?}}0.0,
// MAXMIN32-SAME: {{ }}0.0,
// MAXMIN32-SAME: {{ }}-0.0,
// MAXMIN32-SAME: {{ }}{{-?}}0.0,
// MAXMIN32-SAME: {{ }}{{-?}}0.0]
func.func @maxmin_f32(%x: f32, %pz: f32) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) {
  %nan = arith.divf %pz, %pz : f32
  %nz = arith.negf %pz : f32
  %maximumf_nan_x = arith.maximumf %nan, %x : f32
  %minimumf_nan_x = arith.minimumf %nan, %x : f32
  %maxnumf_nan_x = arith.maxnumf %nan, %x : f32
  %minnumf_nan_x = arith.minnumf %nan, %x : f32
  %maximumf_x_nan = arith.maximumf %x, %nan : f32
  %minimumf_x_nan = arith.minimumf %x, %nan : f32
  %maxnumf_x_nan = arith.maxnumf %x, %nan : f32
  %minnumf_x_nan = arith.minnumf %x, %nan : f32
  %maximumf_nz_pz = arith.maximumf %nz, %pz : f32
  %minimumf_nz_pz = arith.minimumf %nz, %pz : f32
  %maxnumf_nz_pz = arith.maxnumf %nz, %pz : f32
  %minnumf_nz_pz = arith.minnumf %nz, %pz : f32
  %maximumf_pz_nz = arith.maximumf %pz, %nz : f32
  %minimumf_pz_nz = arith.minimumf %pz, %nz : f32
  %maxnumf_pz_nz = arith.maxnumf %pz, %nz : f32
  %minnumf_pz_nz = arith.minnumf %pz, %nz : f32
  return %maximumf_nan_x, %minimumf_nan_x, %maxnumf_nan_x, %minnumf_nan_x, %maximumf_x_nan, %minimumf_x_nan, %maxnumf_x_nan, %minnumf_x_nan, %maximumf_nz_pz, %minimumf_nz_pz, %maxnumf_nz_pz, %minnumf_nz_pz, %maximumf_pz_nz, %minimumf_pz_nz, %maxnumf_pz_nz, %minnumf_pz_nz : f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32
}

// addf, subf, mulf, divf, remf (the sign of the dividend), negf, and
// select both ways (f64).
// RUN: moonc run %s --entry float_f64 --args '[7.5, -2.0, true]' | FileCheck %s --check-prefix=FLOAT64A
// FLOAT64A: {"results": [5.5,
// FLOAT64A-SAME: {{ }}9.5,
// FLOAT64A-SAME: {{ }}-15.0,
// FLOAT64A-SAME: {{ }}-3.75,
// FLOAT64A-SAME: {{ }}1.5,
// FLOAT64A-SAME: {{ }}-7.5,
// FLOAT64A-SAME: {{ }}7.5,
// FLOAT64A-SAME: {{ }}-2.0]
// RUN: moonc run %s --entry float_f64 --args '[-7.5, 2.0, false]' | FileCheck %s --check-prefix=FLOAT64B
// FLOAT64B: {"results": [-5.5,
// FLOAT64B-SAME: {{ }}-9.5,
// FLOAT64B-SAME: {{ }}-15.0,
// FLOAT64B-SAME: {{ }}-3.75,
// FLOAT64B-SAME: {{ }}-1.5,
// FLOAT64B-SAME: {{ }}7.5,
// FLOAT64B-SAME: {{ }}2.0,
// FLOAT64B-SAME: {{ }}-7.5]
func.func @float_f64(%x: f64, %y: f64, %c: i1) -> (f64, f64, f64, f64, f64, f64, f64, f64) {
  %add = arith.addf %x, %y : f64
  %sub = arith.subf %x, %y : f64
  %mul = arith.mulf %x, %y : f64
  %div = arith.divf %x, %y : f64
  %rem = arith.remf %x, %y : f64
  %neg = arith.negf %x : f64
  %sel = arith.select %c, %x, %y : f64
  %nsel = arith.select %c, %y, %x : f64
  return %add, %sub, %mul, %div, %rem, %neg, %sel, %nsel : f64, f64, f64, f64, f64, f64, f64, f64
}

// addf, subf, mulf, divf, remf (the sign of the dividend), negf, and
// select both ways (f32).
// RUN: moonc run %s --entry float_f32 --args '[7.5, -2.0, true]' | FileCheck %s --check-prefix=FLOAT32A
// FLOAT32A: {"results": [5.5,
// FLOAT32A-SAME: {{ }}9.5,
// FLOAT32A-SAME: {{ }}-15.0,
// FLOAT32A-SAME: {{ }}-3.75,
// FLOAT32A-SAME: {{ }}1.5,
// FLOAT32A-SAME: {{ }}-7.5,
// FLOAT32A-SAME: {{ }}7.5,
// FLOAT32A-SAME: {{ }}-2.0]
// RUN: moonc run %s --entry float_f32 --args '[-7.5, 2.0, false]' | FileCheck %s --check-prefix=FLOAT32B
// FLOAT32B: {"results": [-5.5,
// FLOAT32B-SAME: {{ }}-9.5,
// FLOAT32B-SAME: {{ }}-15.0,
// FLOAT32B-SAME: {{ }}-3.75,
// FLOAT32B-SAME: {{ }}-1.5,
// FLOAT32B-SAME: {{ }}7.5,
// FLOAT32B-SAME: {{ }}2.0,
// FLOAT32B-SAME: {{ }}-7.5]
func.func @float_f32(%x: f32, %y: f32, %c: i1) -> (f32, f32, f32, f32, f32, f32, f32, f32) {
  %add = arith.addf %x, %y : f32
  %sub = arith.subf %x, %y : f32
  %mul = arith.mulf %x, %y : f32
  %div = arith.divf %x, %y : f32
  %rem = arith.remf %x, %y : f32
  %neg = arith.negf %x : f32
  %sel = arith.select %c, %x, %y : f32
  %nsel = arith.select %c, %y, %x : f32
  return %add, %sub, %mul, %div, %rem, %neg, %sel, %nsel : f32, f32, f32, f32, f32, f32, f32, f32
}

// truncf, extf, sitofp (i32 to f64, i64 to f32: 2^53 + 1 rounds), uitofp of
// a negative i32 (its unsigned value), fptosi and fptoui (toward zero),
// bitcast both ways, index_cast and index_castui.
// RUN: moonc run %s --entry casts --args '[-3.7, 5.5, -7, 9007199254740993, 12]' | FileCheck %s --check-prefix=CASTS64
// CASTS64: {"results": [-3.7,
// CASTS64-SAME: {{ }}5.5,
// CASTS64-SAME: {{ }}-7.0,
// CASTS64-SAME: {{ }}9007199000000000.0,
// CASTS64-SAME: {{ }}4294967289.0,
// CASTS64-SAME: {{ }}4294967300.0,
// CASTS64-SAME: {{ }}-3,
// CASTS64-SAME: {{ }}5,
// CASTS64-SAME: {{ }}3,
// CASTS64-SAME: {{ }}5,
// CASTS64-SAME: {{ }}5,
// CASTS64-SAME: {{ }}-4607857958744122982,
// CASTS64-SAME: {{ }}-4607857958744122982,
// CASTS64-SAME: {{ }}1085276160,
// CASTS64-SAME: {{ }}-3.7,
// CASTS64-SAME: {{ }}5.5,
// CASTS64-SAME: {{ }}-7,
// CASTS64-SAME: {{ }}12,
// CASTS64-SAME: {{ }}4294967289,
// CASTS64-SAME: {{ }}12]
func.func @casts(%d: f64, %f: f32, %n: i32, %m: i64, %i: index) -> (f32, f64, f64, f32, f64, f32, i32, i64, i32, i64, i32, i64, i64, i32, f64, f32, index, i32, index, i64) {
  %truncf = arith.truncf %d : f64 to f32
  %extf = arith.extf %f : f32 to f64
  %sitofp64 = arith.sitofp %n : i32 to f64
  %sitofp32 = arith.sitofp %m : i64 to f32
  %uitofp64 = arith.uitofp %n : i32 to f64
  %uitofp32 = arith.uitofp %n : i32 to f32
  %fptosi32 = arith.fptosi %d : f64 to i32
  %fptosi64 = arith.fptosi %f : f32 to i64
  %absd = math.absf %d : f64
  %fptoui32 = arith.fptoui %absd : f64 to i32
  %absf = math.absf %f : f32
  %fptoui64 = arith.fptoui %absf : f32 to i64
  %fptoui32f = arith.fptoui %absf : f32 to i32
  %bits64 = arith.bitcast %d : f64 to i64
  %bits32 = arith.bitcast %f : f32 to i32
  %back64 = arith.bitcast %bits64 : i64 to f64
  %back32 = arith.bitcast %bits32 : i32 to f32
  %idx = arith.index_cast %n : i32 to index
  %idx32 = arith.index_cast %i : index to i32
  %uidx = arith.index_castui %n : i32 to index
  %uidx64 = arith.index_castui %i : index to i64
  return %truncf, %extf, %sitofp64, %sitofp32, %uitofp64, %uitofp32, %fptosi32, %fptosi64, %fptoui32, %fptoui64, %fptoui32f, %bits64, %bits64, %bits32, %back64, %back32, %idx, %idx32, %uidx, %uidx64 : f32, f64, f64, f32, f64, f32, i32, i64, i32, i64, i32, i64, i64, i32, f64, f32, index, i32, index, i64
}

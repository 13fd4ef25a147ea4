// moonc-opt reads a file or stdin and writes stdout or -o FILE.
// RUN: moonc-opt < %s | FileCheck %s
// RUN: moonc-opt - < %s | FileCheck %s
// RUN: moonc-opt %s -o %t && FileCheck %s --input-file=%t

// CHECK-LABEL: func.func @id(
// CHECK-NEXT: return %arg0 : f64
func.func @id(%x: f64) -> f64 {
  return %x : f64
}

// moonc compile --target-cpu: the object is built for the CPU named, not
// this machine's (x86-64: SSE2 only, no AVX register; x86-64-v3: AVX2 but
// no AVX-512), and --header records it. An unknown name is an error.
// REQUIRES: x86_64
// RUN: moonc compile %s --target-cpu x86-64 --emit asm -o - | FileCheck %s --check-prefix=BASE
// BASE-LABEL: scale:
// BASE: mulpd
// BASE-NOT: {{ymm|zmm}}
// RUN: moonc compile %s --target-cpu x86-64-v3 --emit asm -o - | FileCheck %s --check-prefix=V3
// V3-LABEL: scale:
// V3: ymm
// V3-NOT: zmm
// RUN: moonc compile %s --target-cpu x86-64-v3 --header %t.h -o %t.o
// RUN: FileCheck %s --check-prefix=HEADER < %t.h
// HEADER: Compiled for the CPU x86-64-v3 (moonc compile --target-cpu).
// RUN: moonc compile %s --header %t.native.h -o %t.native.o
// RUN: FileCheck %s --check-prefix=NATIVE < %t.native.h
// NATIVE: Compiled for the CPU native ({{.+}}) (moonc compile --target-cpu).
// RUN: not moonc compile %s --target-cpu pentium9 -o %t.bad.o 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not test -e %t.bad.o
// BAD: moonc: error: --target-cpu: unknown target CPU `pentium9` (expected native, x86-64, x86-64-v2, x86-64-v3, x86-64-v4 or an x86-64 CPU name LLVM knows
func.func @scale(%x: memref<?xf64>, %a: f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %x[%i] : memref<?xf64>
    %s = arith.mulf %v, %a : f64
    memref.store %s, %x[%i] : memref<?xf64>
  }
  return
}

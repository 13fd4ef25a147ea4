// Unknown operations are accepted only with --allow-unregistered-dialect.
// RUN: moonc-opt %s --allow-unregistered-dialect | FileCheck %s
// RUN: not moonc-opt %s 2>&1 | FileCheck %s --check-prefix=ERROR

// CHECK: "foo.bar"() : () -> ()
// ERROR: unregistered.mlir:[[@LINE+1]]:{{[0-9]+}}: error: operation being parsed with an unregistered dialect
"foo.bar"() : () -> ()

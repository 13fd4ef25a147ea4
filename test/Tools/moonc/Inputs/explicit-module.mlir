module attributes {test.note = "an explicit module"} {
  func.func @strided(%m: memref<?xf32, strided<[?], offset: ?>>, %k: index) -> (f32, memref<?xf32, strided<[?], offset: ?>>) {
    %c0 = arith.constant 0 : index
    %a = memref.load %m[%c0] : memref<?xf32, strided<[?], offset: ?>>
    %b = memref.load %m[%k] : memref<?xf32, strided<[?], offset: ?>>
    %p = arith.mulf %a, %b : f32
    memref.store %p, %m[%k] : memref<?xf32, strided<[?], offset: ?>>
    return %p, %m : f32, memref<?xf32, strided<[?], offset: ?>>
  }
}

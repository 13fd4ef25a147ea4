// The pushes and pops of `--moon-inline-tape`: through the calling thread's
// cursor into its tape of f64 and i64 values (moonrt_tape_cursor: top, end,
// base, high), a store or a load and a pointer moved, calling moonrt only
// when the current block is full (push) or empty (pop). A pop first raises
// `high` to `top`, which keeps moonrt_tape_peak_bytes exact.
module {
  func.func private @moon_tape_push_f64(%cursor: !llvm.ptr, %v: f64)
      attributes {llvm.linkage = #llvm.linkage<internal>} {
    %top = llvm.load %cursor : !llvm.ptr -> !llvm.ptr
    %end_at = llvm.getelementptr %cursor[1] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
    %end = llvm.load %end_at : !llvm.ptr -> !llvm.ptr
    %full = llvm.icmp "eq" %top, %end : !llvm.ptr
    scf.if %full {
      func.call @moonrt_tape_push_f64(%v) : (f64) -> ()
    } else {
      llvm.store %v, %top : f64, !llvm.ptr
      %next = llvm.getelementptr %top[1] : (!llvm.ptr) -> !llvm.ptr, f64
      llvm.store %next, %cursor : !llvm.ptr, !llvm.ptr
    }
    return
  }
  func.func private @moon_tape_pop_f64(%cursor: !llvm.ptr) -> f64
      attributes {llvm.linkage = #llvm.linkage<internal>} {
    %top = llvm.load %cursor : !llvm.ptr -> !llvm.ptr
    %base_at = llvm.getelementptr %cursor[2] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
    %base = llvm.load %base_at : !llvm.ptr -> !llvm.ptr
    %empty = llvm.icmp "eq" %top, %base : !llvm.ptr
    %v = scf.if %empty -> f64 {
      %p = func.call @moonrt_tape_pop_f64() : () -> f64
      scf.yield %p : f64
    } else {
      %high_at = llvm.getelementptr %cursor[3] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
      %high = llvm.load %high_at : !llvm.ptr -> !llvm.ptr
      %above = llvm.icmp "ugt" %top, %high : !llvm.ptr
      %new_high = llvm.select %above, %top, %high : i1, !llvm.ptr
      llvm.store %new_high, %high_at : !llvm.ptr, !llvm.ptr
      %slot = llvm.getelementptr %top[-1] : (!llvm.ptr) -> !llvm.ptr, f64
      llvm.store %slot, %cursor : !llvm.ptr, !llvm.ptr
      %x = llvm.load %slot : !llvm.ptr -> f64
      scf.yield %x : f64
    }
    return %v : f64
  }
  func.func private @moon_tape_push_i64(%cursor: !llvm.ptr, %v: i64)
      attributes {llvm.linkage = #llvm.linkage<internal>} {
    %top = llvm.load %cursor : !llvm.ptr -> !llvm.ptr
    %end_at = llvm.getelementptr %cursor[1] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
    %end = llvm.load %end_at : !llvm.ptr -> !llvm.ptr
    %full = llvm.icmp "eq" %top, %end : !llvm.ptr
    scf.if %full {
      func.call @moonrt_tape_push_i64(%v) : (i64) -> ()
    } else {
      llvm.store %v, %top : i64, !llvm.ptr
      %next = llvm.getelementptr %top[1] : (!llvm.ptr) -> !llvm.ptr, i64
      llvm.store %next, %cursor : !llvm.ptr, !llvm.ptr
    }
    return
  }
  func.func private @moon_tape_pop_i64(%cursor: !llvm.ptr) -> i64
      attributes {llvm.linkage = #llvm.linkage<internal>} {
    %top = llvm.load %cursor : !llvm.ptr -> !llvm.ptr
    %base_at = llvm.getelementptr %cursor[2] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
    %base = llvm.load %base_at : !llvm.ptr -> !llvm.ptr
    %empty = llvm.icmp "eq" %top, %base : !llvm.ptr
    %v = scf.if %empty -> i64 {
      %p = func.call @moonrt_tape_pop_i64() : () -> i64
      scf.yield %p : i64
    } else {
      %high_at = llvm.getelementptr %cursor[3] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
      %high = llvm.load %high_at : !llvm.ptr -> !llvm.ptr
      %above = llvm.icmp "ugt" %top, %high : !llvm.ptr
      %new_high = llvm.select %above, %top, %high : i1, !llvm.ptr
      llvm.store %new_high, %high_at : !llvm.ptr, !llvm.ptr
      %slot = llvm.getelementptr %top[-1] : (!llvm.ptr) -> !llvm.ptr, i64
      llvm.store %slot, %cursor : !llvm.ptr, !llvm.ptr
      %x = llvm.load %slot : !llvm.ptr -> i64
      scf.yield %x : i64
    }
    return %v : i64
  }
  func.func private @moonrt_tape_push_f64(f64)
  func.func private @moonrt_tape_pop_f64() -> f64
  func.func private @moonrt_tape_push_i64(i64)
  func.func private @moonrt_tape_pop_i64() -> i64
  func.func private @moonrt_tape_cursor() -> !llvm.ptr
}

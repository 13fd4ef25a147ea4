// Reverse mode on more programs of the reverse-mode issue, under moonc check.
// Swaps of loop-carried values: (a, b) = (b, a + sin(b)), (a, b) = (b * x, a)
// and a literal `scf.yield %b, %a` beside a running product, each at an odd
// and an even trip count (the result depends on the parity); a branch inside
// a loop over 10,000 elements generated at test time; x1 * x2^400 as 400
// straight-line multiplies; and g(A, B) = sum((A B) .* (A B)) by a triple
// loop into a local buffer, called as g(A, A). `moonc check` tests forward
// and reverse mode against finite differences and each other; the `moonc
// grad` lines pin the gradients to values derived by hand (in the comments).
// (Overwrite-then-read, x[0] = sin(x[1]); return x[0] * x[2], is @owr in
// reverse.mlir.)

// swapsin, at x = 0.7, y = 1.2, n = 7 and 8: no closed form; the expected
// gradients come from a dual-number evaluation of the recurrence in Python.
// RUN: moonc check %s --entry swapsin --args '[0.7, 1.2, 7]' | FileCheck %s --check-prefix=SWAPSIN
// RUN: moonc check %s --entry swapsin --args '[0.7, 1.2, 8]' | FileCheck %s --check-prefix=SWAPSIN
// SWAPSIN: check: PASS
// RUN: moonc grad %s --entry swapsin --args '[0.7, 1.2, 7]' | FileCheck %s --check-prefix=SWAPSIN7
// SWAPSIN7: {"value": {{2\.6417710[0-9]*}}, "gradient": [{{4\.3952742[0-9]*}}, {{-3\.6251480[0-9]*}}, null]}
// RUN: moonc grad %s --entry swapsin --args '[0.7, 1.2, 8]' | FileCheck %s --check-prefix=SWAPSIN8
// SWAPSIN8: {"value": {{3\.7157060[0-9]*}}, "gradient": [{{-6\.4128122[0-9]*}}, {{5\.5166964[0-9]*}}, null]}

// swapscale, at x = 0.9, y = 1.3: n = 5 ends with a = x^3, b = y x^2, so
// f = x^6 + y x^2 = 1.584441, df/dx = 6 x^5 + 2 y x = 5.88294, df/dy = x^2
// = 0.81; n = 6 ends with a = y x^3, b = x^3, so f = y^2 x^6 + x^3 =
// 1.62713529, df/dx = 6 y^2 x^5 + 3 x^2 = 8.4175686, df/dy = 2 y x^6 =
// 1.3817466.
// RUN: moonc check %s --entry swapscale --args '[0.9, 1.3, 5]' | FileCheck %s --check-prefix=SWAPSCALE
// RUN: moonc check %s --entry swapscale --args '[0.9, 1.3, 6]' | FileCheck %s --check-prefix=SWAPSCALE
// SWAPSCALE: check: PASS
// RUN: moonc grad %s --entry swapscale --args '[0.9, 1.3, 5]' | FileCheck %s --check-prefix=SWAPSCALE5
// SWAPSCALE5: {"value": {{1\.58444[01][0-9]*}}, "gradient": [{{5\.8829[34][0-9]*}}, {{0\.8[01][0-9]*}}, null]}
// RUN: moonc grad %s --entry swapscale --args '[0.9, 1.3, 6]' | FileCheck %s --check-prefix=SWAPSCALE6
// SWAPSCALE6: {"value": {{1\.627135[23][0-9]*}}, "gradient": [{{8\.417568[56][0-9]*}}, {{1\.381746[56][0-9]*}}, null]}

// swappar, at x = 1.1, y = 0.8: the product takes x, y, x, ... so n = 5
// ends with a = y, b = x, p = x^3 y^2 and f = a p - b = x^3 y^3 - x =
// -0.418528, df/dx = 3 x^2 y^3 - 1 = 0.85856, df/dy = 3 x^3 y^2 = 2.55552;
// n = 6 ends with a = x, b = y, p = x^3 y^3, so f = x^4 y^3 - y =
// -0.0503808, df/dx = 4 x^3 y^3 = 2.725888, df/dy = 3 x^4 y^2 - 1 =
// 1.811072.
// RUN: moonc check %s --entry swappar --args '[1.1, 0.8, 5]' | FileCheck %s --check-prefix=SWAPPAR
// RUN: moonc check %s --entry swappar --args '[1.1, 0.8, 6]' | FileCheck %s --check-prefix=SWAPPAR
// SWAPPAR: check: PASS
// RUN: moonc grad %s --entry swappar --args '[1.1, 0.8, 5]' | FileCheck %s --check-prefix=SWAPPAR5
// SWAPPAR5: {"value": {{-0\.41852[78][0-9]*}}, "gradient": [{{0\.8585[56][0-9]*}}, {{2\.5555[12][0-9]*}}, null]}
// RUN: moonc grad %s --entry swappar --args '[1.1, 0.8, 6]' | FileCheck %s --check-prefix=SWAPPAR6
// SWAPPAR6: {"value": {{-0\.050380[78][0-9]*}}, "gradient": [{{2\.72588[78][0-9]*}}, {{1\.81107[12][0-9]*}}, null]}

// branchloop on x_i = 1.5 sin(0.37 i + 0.1), i < 10,000 (half of them
// negative), written by Python at test time: df/dx_i = cos(x_i) x_i +
// sin(x_i) where x_i > 0, 2 x_i elsewhere (x_0 = 0.14975, x_1 = 0.69144,
// x_2 = 1.13223 give 0.2972652, 1.1567858, 1.3884652; f = 9810.479018).
// RUN: %python -c 'import json, math; print(json.dumps([[1.5 * math.sin(0.37 * i + 0.1) for i in range(10000)]]))' > %t.json
// RUN: moonc check %s --entry branchloop --args @%t.json | FileCheck %s --check-prefix=BRANCHLOOP
// RUN: moonc check %s --entry branchloop --args @%t.json --mode reverse | FileCheck %s --check-prefix=BRANCHLOOP
// BRANCHLOOP: check @branchloop: 10000 float inputs, 10001 float outputs
// BRANCHLOOP: check: PASS
// RUN: moonc grad %s --entry branchloop --args @%t.json | FileCheck %s --check-prefix=BRANCHLOOPG
// BRANCHLOOPG: {"value": {{9810\.47901[0-9]*}}, "gradient": {{\[\[}}{{0\.2972652[0-9]*}}, {{1\.1567858[0-9]*}}, {{1\.3884651[0-9]*}},

// gaa(A) = g(A, A) = sum(C .* C) with C = A A; its gradient is
// G A^T + A^T G with G = 2 C. At A = [[1, 2, 0.5], [0.3, -1, 2],
// [1.5, 0.2, -0.7]]: f = 56.3428 and the gradient [[17.28, 27.19, 12.55],
// [14.354, -17.736, 38.106], [26.936, 5.922, -10.848]]. g itself, with
// two different matrices, is checked too.
// RUN: moonc check %s --entry gaa --args '[[[1, 2, 0.5], [0.3, -1, 2], [1.5, 0.2, -0.7]]]' | FileCheck %s --check-prefix=GAA
// RUN: moonc check %s --entry gaa --args '[[[1, 2, 0.5], [0.3, -1, 2], [1.5, 0.2, -0.7]]]' --mode reverse | FileCheck %s --check-prefix=GAA
// GAA: check: PASS
// RUN: moonc check %s --entry g --args '[[[1, 2, 0.5], [0.3, -1, 2], [1.5, 0.2, -0.7]], [[0.1, 2, 0.5], [0.3, -1, 0.4], [1.5, 0.2, -0.7]]]' | FileCheck %s --check-prefix=GAB
// GAB: check: PASS
// RUN: moonc grad %s --entry gaa --args '[[[1, 2, 0.5], [0.3, -1, 2], [1.5, 0.2, -0.7]]]' | FileCheck %s --check-prefix=GAAG
// GAAG: {"value": {{56\.342[78][0-9]*}}, "gradient": {{\[\[\[}}{{17\.2[78][0-9]*}}, {{27\.1[89][0-9]*}}, {{12\.5[45][0-9]*}}], [{{14\.35[34][0-9]*}}, {{-17\.73[56][0-9]*}}, {{38\.10[56][0-9]*}}], [{{26\.93[56][0-9]*}}, {{5\.92[12][0-9]*}}, {{-10\.84[78][0-9]*}}]]]}

// pow400 at x1 = 1.3, x2 = 1.001: f = x1 x2^400 = 1.9389845296,
// df/dx1 = x2^400 = 1.4915265613, df/dx2 = 400 x1 x2^399 = 774.81899286.
// RUN: moonc check %s --entry pow400 --args '[1.3, 1.001]' | FileCheck %s --check-prefix=POW400
// POW400: check: PASS
// RUN: moonc grad %s --entry pow400 --args '[1.3, 1.001]' | FileCheck %s --check-prefix=POW400G
// POW400G: {"value": {{1\.93898452[0-9]*}}, "gradient": [{{1\.49152656[0-9]*}}, {{774\.818992[0-9]*}}]}

func.func @swapsin(%x: f64, %y: f64, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x, %b = %y) -> (f64, f64) {
    %s = math.sin %b : f64
    %a2 = arith.addf %a, %s : f64
    scf.yield %b, %a2 : f64, f64
  }
  return %r#1 : f64
}

func.func @swapscale(%x: f64, %y: f64, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f64
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %y, %b = %one) -> (f64, f64) {
    %bx = arith.mulf %b, %x : f64
    scf.yield %bx, %a : f64, f64
  }
  %m = arith.mulf %r#0, %r#0 : f64
  %t = arith.addf %m, %r#1 : f64
  return %t : f64
}

func.func @swappar(%x: f64, %y: f64, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f64
  %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x, %b = %y, %p = %one) -> (f64, f64, f64) {
    %p2 = arith.mulf %p, %a : f64
    scf.yield %b, %a, %p2 : f64, f64, f64
  }
  %q = arith.mulf %r#0, %r#2 : f64
  %t = arith.subf %q, %r#1 : f64
  return %t : f64
}

func.func @branchloop(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %z = arith.constant 0.0 : f64
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %pos = arith.cmpf ogt, %v, %z : f64
    %t = scf.if %pos -> f64 {
      %sv = math.sin %v : f64
      %m = arith.mulf %sv, %v : f64
      scf.yield %m : f64
    } else {
      %m = arith.mulf %v, %v : f64
      scf.yield %m : f64
    }
    %a = arith.addf %acc, %t : f64
    scf.yield %a : f64
  }
  return %s : f64
}

func.func @g(%a: memref<?x?xf64>, %b: memref<?x?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f64
  %m = memref.dim %a, %c0 : memref<?x?xf64>
  %k = memref.dim %a, %c1 : memref<?x?xf64>
  %n = memref.dim %b, %c1 : memref<?x?xf64>
  %c = memref.alloc(%m, %n) : memref<?x?xf64>
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %dot = scf.for %l = %c0 to %k step %c1 iter_args(%acc = %z) -> f64 {
        %av = memref.load %a[%i, %l] : memref<?x?xf64>
        %bv = memref.load %b[%l, %j] : memref<?x?xf64>
        %p = arith.mulf %av, %bv : f64
        %acc2 = arith.addf %acc, %p : f64
        scf.yield %acc2 : f64
      }
      memref.store %dot, %c[%i, %j] : memref<?x?xf64>
    }
  }
  %s = scf.for %i = %c0 to %m step %c1 iter_args(%acc = %z) -> f64 {
    %t = scf.for %j = %c0 to %n step %c1 iter_args(%acc2 = %acc) -> f64 {
      %v = memref.load %c[%i, %j] : memref<?x?xf64>
      %sq = arith.mulf %v, %v : f64
      %a2 = arith.addf %acc2, %sq : f64
      scf.yield %a2 : f64
    }
    scf.yield %t : f64
  }
  memref.dealloc %c : memref<?x?xf64>
  return %s : f64
}

func.func @gaa(%a: memref<?x?xf64>) -> f64 {
  %r = func.call @g(%a, %a) : (memref<?x?xf64>, memref<?x?xf64>) -> f64
  return %r : f64
}

// The 400 multiplies were written by
// python3 -c 'print("\n".join("  %%p%d = arith.mulf %s, %%x2 : f64" % (k, "%%p%d" % (k - 1) if k > 1 else "%x1") for k in range(1, 401)))'
func.func @pow400(%x1: f64, %x2: f64) -> f64 {
  %p1 = arith.mulf %x1, %x2 : f64
  %p2 = arith.mulf %p1, %x2 : f64
  %p3 = arith.mulf %p2, %x2 : f64
  %p4 = arith.mulf %p3, %x2 : f64
  %p5 = arith.mulf %p4, %x2 : f64
  %p6 = arith.mulf %p5, %x2 : f64
  %p7 = arith.mulf %p6, %x2 : f64
  %p8 = arith.mulf %p7, %x2 : f64
  %p9 = arith.mulf %p8, %x2 : f64
  %p10 = arith.mulf %p9, %x2 : f64
  %p11 = arith.mulf %p10, %x2 : f64
  %p12 = arith.mulf %p11, %x2 : f64
  %p13 = arith.mulf %p12, %x2 : f64
  %p14 = arith.mulf %p13, %x2 : f64
  %p15 = arith.mulf %p14, %x2 : f64
  %p16 = arith.mulf %p15, %x2 : f64
  %p17 = arith.mulf %p16, %x2 : f64
  %p18 = arith.mulf %p17, %x2 : f64
  %p19 = arith.mulf %p18, %x2 : f64
  %p20 = arith.mulf %p19, %x2 : f64
  %p21 = arith.mulf %p20, %x2 : f64
  %p22 = arith.mulf %p21, %x2 : f64
  %p23 = arith.mulf %p22, %x2 : f64
  %p24 = arith.mulf %p23, %x2 : f64
  %p25 = arith.mulf %p24, %x2 : f64
  %p26 = arith.mulf %p25, %x2 : f64
  %p27 = arith.mulf %p26, %x2 : f64
  %p28 = arith.mulf %p27, %x2 : f64
  %p29 = arith.mulf %p28, %x2 : f64
  %p30 = arith.mulf %p29, %x2 : f64
  %p31 = arith.mulf %p30, %x2 : f64
  %p32 = arith.mulf %p31, %x2 : f64
  %p33 = arith.mulf %p32, %x2 : f64
  %p34 = arith.mulf %p33, %x2 : f64
  %p35 = arith.mulf %p34, %x2 : f64
  %p36 = arith.mulf %p35, %x2 : f64
  %p37 = arith.mulf %p36, %x2 : f64
  %p38 = arith.mulf %p37, %x2 : f64
  %p39 = arith.mulf %p38, %x2 : f64
  %p40 = arith.mulf %p39, %x2 : f64
  %p41 = arith.mulf %p40, %x2 : f64
  %p42 = arith.mulf %p41, %x2 : f64
  %p43 = arith.mulf %p42, %x2 : f64
  %p44 = arith.mulf %p43, %x2 : f64
  %p45 = arith.mulf %p44, %x2 : f64
  %p46 = arith.mulf %p45, %x2 : f64
  %p47 = arith.mulf %p46, %x2 : f64
  %p48 = arith.mulf %p47, %x2 : f64
  %p49 = arith.mulf %p48, %x2 : f64
  %p50 = arith.mulf %p49, %x2 : f64
  %p51 = arith.mulf %p50, %x2 : f64
  %p52 = arith.mulf %p51, %x2 : f64
  %p53 = arith.mulf %p52, %x2 : f64
  %p54 = arith.mulf %p53, %x2 : f64
  %p55 = arith.mulf %p54, %x2 : f64
  %p56 = arith.mulf %p55, %x2 : f64
  %p57 = arith.mulf %p56, %x2 : f64
  %p58 = arith.mulf %p57, %x2 : f64
  %p59 = arith.mulf %p58, %x2 : f64
  %p60 = arith.mulf %p59, %x2 : f64
  %p61 = arith.mulf %p60, %x2 : f64
  %p62 = arith.mulf %p61, %x2 : f64
  %p63 = arith.mulf %p62, %x2 : f64
  %p64 = arith.mulf %p63, %x2 : f64
  %p65 = arith.mulf %p64, %x2 : f64
  %p66 = arith.mulf %p65, %x2 : f64
  %p67 = arith.mulf %p66, %x2 : f64
  %p68 = arith.mulf %p67, %x2 : f64
  %p69 = arith.mulf %p68, %x2 : f64
  %p70 = arith.mulf %p69, %x2 : f64
  %p71 = arith.mulf %p70, %x2 : f64
  %p72 = arith.mulf %p71, %x2 : f64
  %p73 = arith.mulf %p72, %x2 : f64
  %p74 = arith.mulf %p73, %x2 : f64
  %p75 = arith.mulf %p74, %x2 : f64
  %p76 = arith.mulf %p75, %x2 : f64
  %p77 = arith.mulf %p76, %x2 : f64
  %p78 = arith.mulf %p77, %x2 : f64
  %p79 = arith.mulf %p78, %x2 : f64
  %p80 = arith.mulf %p79, %x2 : f64
  %p81 = arith.mulf %p80, %x2 : f64
  %p82 = arith.mulf %p81, %x2 : f64
  %p83 = arith.mulf %p82, %x2 : f64
  %p84 = arith.mulf %p83, %x2 : f64
  %p85 = arith.mulf %p84, %x2 : f64
  %p86 = arith.mulf %p85, %x2 : f64
  %p87 = arith.mulf %p86, %x2 : f64
  %p88 = arith.mulf %p87, %x2 : f64
  %p89 = arith.mulf %p88, %x2 : f64
  %p90 = arith.mulf %p89, %x2 : f64
  %p91 = arith.mulf %p90, %x2 : f64
  %p92 = arith.mulf %p91, %x2 : f64
  %p93 = arith.mulf %p92, %x2 : f64
  %p94 = arith.mulf %p93, %x2 : f64
  %p95 = arith.mulf %p94, %x2 : f64
  %p96 = arith.mulf %p95, %x2 : f64
  %p97 = arith.mulf %p96, %x2 : f64
  %p98 = arith.mulf %p97, %x2 : f64
  %p99 = arith.mulf %p98, %x2 : f64
  %p100 = arith.mulf %p99, %x2 : f64
  %p101 = arith.mulf %p100, %x2 : f64
  %p102 = arith.mulf %p101, %x2 : f64
  %p103 = arith.mulf %p102, %x2 : f64
  %p104 = arith.mulf %p103, %x2 : f64
  %p105 = arith.mulf %p104, %x2 : f64
  %p106 = arith.mulf %p105, %x2 : f64
  %p107 = arith.mulf %p106, %x2 : f64
  %p108 = arith.mulf %p107, %x2 : f64
  %p109 = arith.mulf %p108, %x2 : f64
  %p110 = arith.mulf %p109, %x2 : f64
  %p111 = arith.mulf %p110, %x2 : f64
  %p112 = arith.mulf %p111, %x2 : f64
  %p113 = arith.mulf %p112, %x2 : f64
  %p114 = arith.mulf %p113, %x2 : f64
  %p115 = arith.mulf %p114, %x2 : f64
  %p116 = arith.mulf %p115, %x2 : f64
  %p117 = arith.mulf %p116, %x2 : f64
  %p118 = arith.mulf %p117, %x2 : f64
  %p119 = arith.mulf %p118, %x2 : f64
  %p120 = arith.mulf %p119, %x2 : f64
  %p121 = arith.mulf %p120, %x2 : f64
  %p122 = arith.mulf %p121, %x2 : f64
  %p123 = arith.mulf %p122, %x2 : f64
  %p124 = arith.mulf %p123, %x2 : f64
  %p125 = arith.mulf %p124, %x2 : f64
  %p126 = arith.mulf %p125, %x2 : f64
  %p127 = arith.mulf %p126, %x2 : f64
  %p128 = arith.mulf %p127, %x2 : f64
  %p129 = arith.mulf %p128, %x2 : f64
  %p130 = arith.mulf %p129, %x2 : f64
  %p131 = arith.mulf %p130, %x2 : f64
  %p132 = arith.mulf %p131, %x2 : f64
  %p133 = arith.mulf %p132, %x2 : f64
  %p134 = arith.mulf %p133, %x2 : f64
  %p135 = arith.mulf %p134, %x2 : f64
  %p136 = arith.mulf %p135, %x2 : f64
  %p137 = arith.mulf %p136, %x2 : f64
  %p138 = arith.mulf %p137, %x2 : f64
  %p139 = arith.mulf %p138, %x2 : f64
  %p140 = arith.mulf %p139, %x2 : f64
  %p141 = arith.mulf %p140, %x2 : f64
  %p142 = arith.mulf %p141, %x2 : f64
  %p143 = arith.mulf %p142, %x2 : f64
  %p144 = arith.mulf %p143, %x2 : f64
  %p145 = arith.mulf %p144, %x2 : f64
  %p146 = arith.mulf %p145, %x2 : f64
  %p147 = arith.mulf %p146, %x2 : f64
  %p148 = arith.mulf %p147, %x2 : f64
  %p149 = arith.mulf %p148, %x2 : f64
  %p150 = arith.mulf %p149, %x2 : f64
  %p151 = arith.mulf %p150, %x2 : f64
  %p152 = arith.mulf %p151, %x2 : f64
  %p153 = arith.mulf %p152, %x2 : f64
  %p154 = arith.mulf %p153, %x2 : f64
  %p155 = arith.mulf %p154, %x2 : f64
  %p156 = arith.mulf %p155, %x2 : f64
  %p157 = arith.mulf %p156, %x2 : f64
  %p158 = arith.mulf %p157, %x2 : f64
  %p159 = arith.mulf %p158, %x2 : f64
  %p160 = arith.mulf %p159, %x2 : f64
  %p161 = arith.mulf %p160, %x2 : f64
  %p162 = arith.mulf %p161, %x2 : f64
  %p163 = arith.mulf %p162, %x2 : f64
  %p164 = arith.mulf %p163, %x2 : f64
  %p165 = arith.mulf %p164, %x2 : f64
  %p166 = arith.mulf %p165, %x2 : f64
  %p167 = arith.mulf %p166, %x2 : f64
  %p168 = arith.mulf %p167, %x2 : f64
  %p169 = arith.mulf %p168, %x2 : f64
  %p170 = arith.mulf %p169, %x2 : f64
  %p171 = arith.mulf %p170, %x2 : f64
  %p172 = arith.mulf %p171, %x2 : f64
  %p173 = arith.mulf %p172, %x2 : f64
  %p174 = arith.mulf %p173, %x2 : f64
  %p175 = arith.mulf %p174, %x2 : f64
  %p176 = arith.mulf %p175, %x2 : f64
  %p177 = arith.mulf %p176, %x2 : f64
  %p178 = arith.mulf %p177, %x2 : f64
  %p179 = arith.mulf %p178, %x2 : f64
  %p180 = arith.mulf %p179, %x2 : f64
  %p181 = arith.mulf %p180, %x2 : f64
  %p182 = arith.mulf %p181, %x2 : f64
  %p183 = arith.mulf %p182, %x2 : f64
  %p184 = arith.mulf %p183, %x2 : f64
  %p185 = arith.mulf %p184, %x2 : f64
  %p186 = arith.mulf %p185, %x2 : f64
  %p187 = arith.mulf %p186, %x2 : f64
  %p188 = arith.mulf %p187, %x2 : f64
  %p189 = arith.mulf %p188, %x2 : f64
  %p190 = arith.mulf %p189, %x2 : f64
  %p191 = arith.mulf %p190, %x2 : f64
  %p192 = arith.mulf %p191, %x2 : f64
  %p193 = arith.mulf %p192, %x2 : f64
  %p194 = arith.mulf %p193, %x2 : f64
  %p195 = arith.mulf %p194, %x2 : f64
  %p196 = arith.mulf %p195, %x2 : f64
  %p197 = arith.mulf %p196, %x2 : f64
  %p198 = arith.mulf %p197, %x2 : f64
  %p199 = arith.mulf %p198, %x2 : f64
  %p200 = arith.mulf %p199, %x2 : f64
  %p201 = arith.mulf %p200, %x2 : f64
  %p202 = arith.mulf %p201, %x2 : f64
  %p203 = arith.mulf %p202, %x2 : f64
  %p204 = arith.mulf %p203, %x2 : f64
  %p205 = arith.mulf %p204, %x2 : f64
  %p206 = arith.mulf %p205, %x2 : f64
  %p207 = arith.mulf %p206, %x2 : f64
  %p208 = arith.mulf %p207, %x2 : f64
  %p209 = arith.mulf %p208, %x2 : f64
  %p210 = arith.mulf %p209, %x2 : f64
  %p211 = arith.mulf %p210, %x2 : f64
  %p212 = arith.mulf %p211, %x2 : f64
  %p213 = arith.mulf %p212, %x2 : f64
  %p214 = arith.mulf %p213, %x2 : f64
  %p215 = arith.mulf %p214, %x2 : f64
  %p216 = arith.mulf %p215, %x2 : f64
  %p217 = arith.mulf %p216, %x2 : f64
  %p218 = arith.mulf %p217, %x2 : f64
  %p219 = arith.mulf %p218, %x2 : f64
  %p220 = arith.mulf %p219, %x2 : f64
  %p221 = arith.mulf %p220, %x2 : f64
  %p222 = arith.mulf %p221, %x2 : f64
  %p223 = arith.mulf %p222, %x2 : f64
  %p224 = arith.mulf %p223, %x2 : f64
  %p225 = arith.mulf %p224, %x2 : f64
  %p226 = arith.mulf %p225, %x2 : f64
  %p227 = arith.mulf %p226, %x2 : f64
  %p228 = arith.mulf %p227, %x2 : f64
  %p229 = arith.mulf %p228, %x2 : f64
  %p230 = arith.mulf %p229, %x2 : f64
  %p231 = arith.mulf %p230, %x2 : f64
  %p232 = arith.mulf %p231, %x2 : f64
  %p233 = arith.mulf %p232, %x2 : f64
  %p234 = arith.mulf %p233, %x2 : f64
  %p235 = arith.mulf %p234, %x2 : f64
  %p236 = arith.mulf %p235, %x2 : f64
  %p237 = arith.mulf %p236, %x2 : f64
  %p238 = arith.mulf %p237, %x2 : f64
  %p239 = arith.mulf %p238, %x2 : f64
  %p240 = arith.mulf %p239, %x2 : f64
  %p241 = arith.mulf %p240, %x2 : f64
  %p242 = arith.mulf %p241, %x2 : f64
  %p243 = arith.mulf %p242, %x2 : f64
  %p244 = arith.mulf %p243, %x2 : f64
  %p245 = arith.mulf %p244, %x2 : f64
  %p246 = arith.mulf %p245, %x2 : f64
  %p247 = arith.mulf %p246, %x2 : f64
  %p248 = arith.mulf %p247, %x2 : f64
  %p249 = arith.mulf %p248, %x2 : f64
  %p250 = arith.mulf %p249, %x2 : f64
  %p251 = arith.mulf %p250, %x2 : f64
  %p252 = arith.mulf %p251, %x2 : f64
  %p253 = arith.mulf %p252, %x2 : f64
  %p254 = arith.mulf %p253, %x2 : f64
  %p255 = arith.mulf %p254, %x2 : f64
  %p256 = arith.mulf %p255, %x2 : f64
  %p257 = arith.mulf %p256, %x2 : f64
  %p258 = arith.mulf %p257, %x2 : f64
  %p259 = arith.mulf %p258, %x2 : f64
  %p260 = arith.mulf %p259, %x2 : f64
  %p261 = arith.mulf %p260, %x2 : f64
  %p262 = arith.mulf %p261, %x2 : f64
  %p263 = arith.mulf %p262, %x2 : f64
  %p264 = arith.mulf %p263, %x2 : f64
  %p265 = arith.mulf %p264, %x2 : f64
  %p266 = arith.mulf %p265, %x2 : f64
  %p267 = arith.mulf %p266, %x2 : f64
  %p268 = arith.mulf %p267, %x2 : f64
  %p269 = arith.mulf %p268, %x2 : f64
  %p270 = arith.mulf %p269, %x2 : f64
  %p271 = arith.mulf %p270, %x2 : f64
  %p272 = arith.mulf %p271, %x2 : f64
  %p273 = arith.mulf %p272, %x2 : f64
  %p274 = arith.mulf %p273, %x2 : f64
  %p275 = arith.mulf %p274, %x2 : f64
  %p276 = arith.mulf %p275, %x2 : f64
  %p277 = arith.mulf %p276, %x2 : f64
  %p278 = arith.mulf %p277, %x2 : f64
  %p279 = arith.mulf %p278, %x2 : f64
  %p280 = arith.mulf %p279, %x2 : f64
  %p281 = arith.mulf %p280, %x2 : f64
  %p282 = arith.mulf %p281, %x2 : f64
  %p283 = arith.mulf %p282, %x2 : f64
  %p284 = arith.mulf %p283, %x2 : f64
  %p285 = arith.mulf %p284, %x2 : f64
  %p286 = arith.mulf %p285, %x2 : f64
  %p287 = arith.mulf %p286, %x2 : f64
  %p288 = arith.mulf %p287, %x2 : f64
  %p289 = arith.mulf %p288, %x2 : f64
  %p290 = arith.mulf %p289, %x2 : f64
  %p291 = arith.mulf %p290, %x2 : f64
  %p292 = arith.mulf %p291, %x2 : f64
  %p293 = arith.mulf %p292, %x2 : f64
  %p294 = arith.mulf %p293, %x2 : f64
  %p295 = arith.mulf %p294, %x2 : f64
  %p296 = arith.mulf %p295, %x2 : f64
  %p297 = arith.mulf %p296, %x2 : f64
  %p298 = arith.mulf %p297, %x2 : f64
  %p299 = arith.mulf %p298, %x2 : f64
  %p300 = arith.mulf %p299, %x2 : f64
  %p301 = arith.mulf %p300, %x2 : f64
  %p302 = arith.mulf %p301, %x2 : f64
  %p303 = arith.mulf %p302, %x2 : f64
  %p304 = arith.mulf %p303, %x2 : f64
  %p305 = arith.mulf %p304, %x2 : f64
  %p306 = arith.mulf %p305, %x2 : f64
  %p307 = arith.mulf %p306, %x2 : f64
  %p308 = arith.mulf %p307, %x2 : f64
  %p309 = arith.mulf %p308, %x2 : f64
  %p310 = arith.mulf %p309, %x2 : f64
  %p311 = arith.mulf %p310, %x2 : f64
  %p312 = arith.mulf %p311, %x2 : f64
  %p313 = arith.mulf %p312, %x2 : f64
  %p314 = arith.mulf %p313, %x2 : f64
  %p315 = arith.mulf %p314, %x2 : f64
  %p316 = arith.mulf %p315, %x2 : f64
  %p317 = arith.mulf %p316, %x2 : f64
  %p318 = arith.mulf %p317, %x2 : f64
  %p319 = arith.mulf %p318, %x2 : f64
  %p320 = arith.mulf %p319, %x2 : f64
  %p321 = arith.mulf %p320, %x2 : f64
  %p322 = arith.mulf %p321, %x2 : f64
  %p323 = arith.mulf %p322, %x2 : f64
  %p324 = arith.mulf %p323, %x2 : f64
  %p325 = arith.mulf %p324, %x2 : f64
  %p326 = arith.mulf %p325, %x2 : f64
  %p327 = arith.mulf %p326, %x2 : f64
  %p328 = arith.mulf %p327, %x2 : f64
  %p329 = arith.mulf %p328, %x2 : f64
  %p330 = arith.mulf %p329, %x2 : f64
  %p331 = arith.mulf %p330, %x2 : f64
  %p332 = arith.mulf %p331, %x2 : f64
  %p333 = arith.mulf %p332, %x2 : f64
  %p334 = arith.mulf %p333, %x2 : f64
  %p335 = arith.mulf %p334, %x2 : f64
  %p336 = arith.mulf %p335, %x2 : f64
  %p337 = arith.mulf %p336, %x2 : f64
  %p338 = arith.mulf %p337, %x2 : f64
  %p339 = arith.mulf %p338, %x2 : f64
  %p340 = arith.mulf %p339, %x2 : f64
  %p341 = arith.mulf %p340, %x2 : f64
  %p342 = arith.mulf %p341, %x2 : f64
  %p343 = arith.mulf %p342, %x2 : f64
  %p344 = arith.mulf %p343, %x2 : f64
  %p345 = arith.mulf %p344, %x2 : f64
  %p346 = arith.mulf %p345, %x2 : f64
  %p347 = arith.mulf %p346, %x2 : f64
  %p348 = arith.mulf %p347, %x2 : f64
  %p349 = arith.mulf %p348, %x2 : f64
  %p350 = arith.mulf %p349, %x2 : f64
  %p351 = arith.mulf %p350, %x2 : f64
  %p352 = arith.mulf %p351, %x2 : f64
  %p353 = arith.mulf %p352, %x2 : f64
  %p354 = arith.mulf %p353, %x2 : f64
  %p355 = arith.mulf %p354, %x2 : f64
  %p356 = arith.mulf %p355, %x2 : f64
  %p357 = arith.mulf %p356, %x2 : f64
  %p358 = arith.mulf %p357, %x2 : f64
  %p359 = arith.mulf %p358, %x2 : f64
  %p360 = arith.mulf %p359, %x2 : f64
  %p361 = arith.mulf %p360, %x2 : f64
  %p362 = arith.mulf %p361, %x2 : f64
  %p363 = arith.mulf %p362, %x2 : f64
  %p364 = arith.mulf %p363, %x2 : f64
  %p365 = arith.mulf %p364, %x2 : f64
  %p366 = arith.mulf %p365, %x2 : f64
  %p367 = arith.mulf %p366, %x2 : f64
  %p368 = arith.mulf %p367, %x2 : f64
  %p369 = arith.mulf %p368, %x2 : f64
  %p370 = arith.mulf %p369, %x2 : f64
  %p371 = arith.mulf %p370, %x2 : f64
  %p372 = arith.mulf %p371, %x2 : f64
  %p373 = arith.mulf %p372, %x2 : f64
  %p374 = arith.mulf %p373, %x2 : f64
  %p375 = arith.mulf %p374, %x2 : f64
  %p376 = arith.mulf %p375, %x2 : f64
  %p377 = arith.mulf %p376, %x2 : f64
  %p378 = arith.mulf %p377, %x2 : f64
  %p379 = arith.mulf %p378, %x2 : f64
  %p380 = arith.mulf %p379, %x2 : f64
  %p381 = arith.mulf %p380, %x2 : f64
  %p382 = arith.mulf %p381, %x2 : f64
  %p383 = arith.mulf %p382, %x2 : f64
  %p384 = arith.mulf %p383, %x2 : f64
  %p385 = arith.mulf %p384, %x2 : f64
  %p386 = arith.mulf %p385, %x2 : f64
  %p387 = arith.mulf %p386, %x2 : f64
  %p388 = arith.mulf %p387, %x2 : f64
  %p389 = arith.mulf %p388, %x2 : f64
  %p390 = arith.mulf %p389, %x2 : f64
  %p391 = arith.mulf %p390, %x2 : f64
  %p392 = arith.mulf %p391, %x2 : f64
  %p393 = arith.mulf %p392, %x2 : f64
  %p394 = arith.mulf %p393, %x2 : f64
  %p395 = arith.mulf %p394, %x2 : f64
  %p396 = arith.mulf %p395, %x2 : f64
  %p397 = arith.mulf %p396, %x2 : f64
  %p398 = arith.mulf %p397, %x2 : f64
  %p399 = arith.mulf %p398, %x2 : f64
  %p400 = arith.mulf %p399, %x2 : f64
  return %p400 : f64
}

// Buffers written by an earlier top-level loop and only read afterwards,
// which the reverse sweep reads again instead of taping: a local buffer,
// f(x) = (sum_i exp(x_i)^2)^2, df/dx_i = 4 S exp(2 x_i) with S = sum_i
// exp(2 x_i); and an argument, w = sin(x) then f = sum_i w_i x_i w_i,
// df/dx_i = 2 sin(x_i) cos(x_i) x_i + sin(x_i)^2 (w's initial contents do
// not matter). At x = [0.1, -0.3, 0.5].
// RUN: moonc check %s --entry reread_local --args '[[0.1, -0.3, 0.5]]' | FileCheck %s --check-prefix=REREAD
// RUN: moonc check %s --entry reread_arg --args '[[0.1, -0.3, 0.5], [0.0, 0.0, 0.0]]' | FileCheck %s --check-prefix=REREAD
// REREAD: check: PASS
// RUN: moonc grad %s --entry reread_local --args '[[0.1, -0.3, 0.5]]' | FileCheck %s --check-prefix=REREAD_LOCAL
// REREAD_LOCAL: {"value": {{20\.146598341311[0-9]*}}, "gradient": {{\[\[}}{{21\.9290466656538[0-9]*}}, {{9\.8533558223564[0-9]*}}, {{48\.803990877233[0-9]*}}]]}
// RUN: moonc grad %s --entry reread_arg --args '[[0.1, -0.3, 0.5], [0.0, 0.0, 0.0]]' | FileCheck %s --check-prefix=REREAD_ARG
// REREAD_ARG: {"value": {{0\.0897214368773547[0-9]*}}, "gradient": {{\[\[}}{{0\.0298336441588853[0-9]*}}, {{0\.256724934563671[0-9]*}}, {{0\.650584339469878[0-9]*}}], [0.0, 0.0, 0.0]]}
func.func @reread_local(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f64
  %n = memref.dim %x, %c0 : memref<?xf64>
  %t = memref.alloc(%n) : memref<?xf64>
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %x[%i] : memref<?xf64>
    %e = math.exp %v : f64
    memref.store %e, %t[%i] : memref<?xf64>
  }
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    %v = memref.load %t[%i] : memref<?xf64>
    %sq = arith.mulf %v, %v : f64
    %a = arith.addf %acc, %sq : f64
    scf.yield %a : f64
  }
  memref.dealloc %t : memref<?xf64>
  %r = arith.mulf %s, %s : f64
  return %r : f64
}

func.func @reread_arg(%x: memref<?xf64>, %w: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f64
  %n = memref.dim %x, %c0 : memref<?xf64>
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %x[%i] : memref<?xf64>
    %e = math.sin %v : f64
    memref.store %e, %w[%i] : memref<?xf64>
  }
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    %v = memref.load %w[%i] : memref<?xf64>
    %u = memref.load %x[%i] : memref<?xf64>
    %p = arith.mulf %v, %u : f64
    %q = arith.mulf %p, %v : f64
    %a = arith.addf %acc, %q : f64
    scf.yield %a : f64
  }
  return %s : f64
}

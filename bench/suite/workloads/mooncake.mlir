// The suite's Mooncake workloads (bench/suite/workloads/mooncake.py): the
// inter-framework benchmarks of Mooncake.jl's bench/run_benchmarks.jl,
// written in MLIR. Every function returns one f64 and is differentiated
// with respect to all its float arguments.

#id = affine_map<(i, j) -> (i, j)>
#all = affine_map<(i, j) -> ()>

// sum(x) (Mooncake's sum_1000, n = 1000)
func.func @sum_1000(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %z = arith.constant 0.0 : f64
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %a = arith.addf %acc, %v : f64
    scf.yield %a : f64
  }
  return %s : f64
}

// A while loop summing x (Mooncake's _sum_1000: `while n < length(x)`).
func.func @while_sum_1000(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %z = arith.constant 0.0 : f64
  %r:2 = scf.while (%i = %c0, %acc = %z) : (index, f64) -> (index, f64) {
    %c = arith.cmpi slt, %i, %n : index
    scf.condition(%c) %i, %acc : index, f64
  } do {
  ^bb0(%j: index, %a: f64):
    %v = memref.load %x[%j] : memref<?xf64>
    %a2 = arith.addf %a, %v : f64
    %j2 = arith.addi %j, %c1 : index
    scf.yield %j2, %a2 : index, f64
  }
  return %r#1 : f64
}

// sum(sin(x)) (Mooncake's sum_sin_1000, n = 1000)
func.func @sum_sin_1000(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %z = arith.constant 0.0 : f64
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %t = math.sin %v : f64
    %a = arith.addf %acc, %t : f64
    scf.yield %a : f64
  }
  return %s : f64
}

// A while loop summing sin(x) (Mooncake's _sum_sin_1000).
func.func @while_sum_sin_1000(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %z = arith.constant 0.0 : f64
  %r:2 = scf.while (%i = %c0, %acc = %z) : (index, f64) -> (index, f64) {
    %c = arith.cmpi slt, %i, %n : index
    scf.condition(%c) %i, %acc : index, f64
  } do {
  ^bb0(%j: index, %a: f64):
    %v = memref.load %x[%j] : memref<?xf64>
    %s = math.sin %v : f64
    %a2 = arith.addf %a, %s : f64
    %j2 = arith.addi %j, %c1 : index
    scf.yield %j2, %a2 : index, f64
  }
  return %r#1 : f64
}

// Mooncake's kron_sum(x, y) = sum(kron(x, y)) for x: p x q, y: r x s
// (20 x 20 and 40 x 40), as Julia computes it: the (p r) x (q s)
// Kronecker product stored, K[i r + k, j s + l] = x[i, j] * y[k, l], then
// summed (a linalg sum).
func.func @kron_sum(%x: memref<?x?xf64>, %y: memref<?x?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = memref.dim %x, %c0 : memref<?x?xf64>
  %q = memref.dim %x, %c1 : memref<?x?xf64>
  %r = memref.dim %y, %c0 : memref<?x?xf64>
  %s = memref.dim %y, %c1 : memref<?x?xf64>
  %pr = arith.muli %p, %r : index
  %qs = arith.muli %q, %s : index
  %kron = memref.alloc(%pr, %qs) : memref<?x?xf64>
  scf.for %i = %c0 to %p step %c1 {
    scf.for %k = %c0 to %r step %c1 {
      %ir = arith.muli %i, %r : index
      %row = arith.addi %ir, %k : index
      scf.for %j = %c0 to %q step %c1 {
        %xv = memref.load %x[%i, %j] : memref<?x?xf64>
        %js = arith.muli %j, %s : index
        scf.for %l = %c0 to %s step %c1 {
          %yv = memref.load %y[%k, %l] : memref<?x?xf64>
          %v = arith.mulf %xv, %yv : f64
          %col = arith.addi %js, %l : index
          memref.store %v, %kron[%row, %col] : memref<?x?xf64>
        }
      }
    }
  }
  %acc = memref.alloca() : memref<f64>
  %z = arith.constant 0.0 : f64
  memref.store %z, %acc[] : memref<f64>
  linalg.generic {indexing_maps = [#id, #all], iterator_types = ["reduction", "reduction"]}
      ins(%kron : memref<?x?xf64>) outs(%acc : memref<f64>) {
  ^bb0(%v: f64, %a: f64):
    %n = arith.addf %a, %v : f64
    linalg.yield %n : f64
  }
  memref.dealloc %kron : memref<?x?xf64>
  %sum = memref.load %acc[] : memref<f64>
  return %sum : f64
}

// sum(map(sin . cos . exp, x)) over a 10 x 10 matrix: a linalg map into a
// temporary, then a linalg sum (Mooncake's map_sin_cos_exp). Julia computes
// Mooncake's broadcast_sin_cos_exp, sum(sin.(cos.(exp.(x)))), the same way
// (the fused broadcast stored, then summed), so that row runs this function
// too.
func.func @map_sin_cos_exp(%x: memref<10x10xf64>) -> f64 {
  %t = memref.alloc() : memref<10x10xf64>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<10x10xf64>) outs(%t : memref<10x10xf64>) {
  ^bb0(%v: f64, %o: f64):
    %e = math.exp %v : f64
    %c = math.cos %e : f64
    %s = math.sin %c : f64
    linalg.yield %s : f64
  }
  %acc = memref.alloca() : memref<f64>
  %z = arith.constant 0.0 : f64
  memref.store %z, %acc[] : memref<f64>
  linalg.generic {indexing_maps = [#id, #all], iterator_types = ["reduction", "reduction"]}
      ins(%t : memref<10x10xf64>) outs(%acc : memref<f64>) {
  ^bb0(%v: f64, %a: f64):
    %n = arith.addf %a, %v : f64
    linalg.yield %n : f64
  }
  memref.dealloc %t : memref<10x10xf64>
  %r = memref.load %acc[] : memref<f64>
  return %r : f64
}

// Mooncake's simple_mlp(W2, W1, Y, X) = sum(abs2, Y - W2 * map(x -> x *
// (0 <= x), W1 * X)), as Julia computes it: each product, the map and the
// difference stored in a temporary (linalg.matmul, linalg maps), then a
// linalg sum of squares. W2: o x h, W1: h x d, Y: o x b, X: d x b (in the
// suite 128 x 256, 256 x 128, 128 x 70, 128 x 70).
func.func @simple_mlp(%w2: memref<?x?xf64>, %w1: memref<?x?xf64>, %y: memref<?x?xf64>, %x: memref<?x?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %h = memref.dim %w1, %c0 : memref<?x?xf64>
  %b = memref.dim %x, %c1 : memref<?x?xf64>
  %o = memref.dim %w2, %c0 : memref<?x?xf64>
  %zero = arith.constant 0.0 : f64
  // W1 * X
  %w1x = memref.alloc(%h, %b) : memref<?x?xf64>
  linalg.fill ins(%zero : f64) outs(%w1x : memref<?x?xf64>)
  linalg.matmul ins(%w1, %x : memref<?x?xf64>, memref<?x?xf64>) outs(%w1x : memref<?x?xf64>)
  // map(x -> x * (0 <= x), W1 * X)
  %relu = memref.alloc(%h, %b) : memref<?x?xf64>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%w1x : memref<?x?xf64>) outs(%relu : memref<?x?xf64>) {
  ^bb0(%v: f64, %out: f64):
    %nonneg = arith.cmpf ole, %zero, %v : f64
    %f = arith.uitofp %nonneg : i1 to f64
    %r = arith.mulf %v, %f : f64
    linalg.yield %r : f64
  }
  // W2 * ...
  %pred = memref.alloc(%o, %b) : memref<?x?xf64>
  linalg.fill ins(%zero : f64) outs(%pred : memref<?x?xf64>)
  linalg.matmul ins(%w2, %relu : memref<?x?xf64>, memref<?x?xf64>) outs(%pred : memref<?x?xf64>)
  // Y - ...
  %diff = memref.alloc(%o, %b) : memref<?x?xf64>
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y, %pred : memref<?x?xf64>, memref<?x?xf64>) outs(%diff : memref<?x?xf64>) {
  ^bb0(%t: f64, %p: f64, %out: f64):
    %d = arith.subf %t, %p : f64
    linalg.yield %d : f64
  }
  // sum(abs2, ...)
  %acc = memref.alloca() : memref<f64>
  memref.store %zero, %acc[] : memref<f64>
  linalg.generic {indexing_maps = [#id, #all], iterator_types = ["reduction", "reduction"]}
      ins(%diff : memref<?x?xf64>) outs(%acc : memref<f64>) {
  ^bb0(%d: f64, %a: f64):
    %sq = arith.mulf %d, %d : f64
    %s = arith.addf %a, %sq : f64
    linalg.yield %s : f64
  }
  memref.dealloc %w1x : memref<?x?xf64>
  memref.dealloc %relu : memref<?x?xf64>
  memref.dealloc %pred : memref<?x?xf64>
  memref.dealloc %diff : memref<?x?xf64>
  %loss = memref.load %acc[] : memref<f64>
  return %loss : f64
}

// Mooncake's large_single_block(x) = x[1] * x[2]^400, as it computes it:
// 400 multiplications by x[2] in one block (straight-line code, no loop).
func.func @large_single_block(%x: memref<2xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %v0 = memref.load %x[%c0] : memref<2xf64>
  %a = memref.load %x[%c1] : memref<2xf64>
  %v1 = arith.mulf %v0, %a : f64
  %v2 = arith.mulf %v1, %a : f64
  %v3 = arith.mulf %v2, %a : f64
  %v4 = arith.mulf %v3, %a : f64
  %v5 = arith.mulf %v4, %a : f64
  %v6 = arith.mulf %v5, %a : f64
  %v7 = arith.mulf %v6, %a : f64
  %v8 = arith.mulf %v7, %a : f64
  %v9 = arith.mulf %v8, %a : f64
  %v10 = arith.mulf %v9, %a : f64
  %v11 = arith.mulf %v10, %a : f64
  %v12 = arith.mulf %v11, %a : f64
  %v13 = arith.mulf %v12, %a : f64
  %v14 = arith.mulf %v13, %a : f64
  %v15 = arith.mulf %v14, %a : f64
  %v16 = arith.mulf %v15, %a : f64
  %v17 = arith.mulf %v16, %a : f64
  %v18 = arith.mulf %v17, %a : f64
  %v19 = arith.mulf %v18, %a : f64
  %v20 = arith.mulf %v19, %a : f64
  %v21 = arith.mulf %v20, %a : f64
  %v22 = arith.mulf %v21, %a : f64
  %v23 = arith.mulf %v22, %a : f64
  %v24 = arith.mulf %v23, %a : f64
  %v25 = arith.mulf %v24, %a : f64
  %v26 = arith.mulf %v25, %a : f64
  %v27 = arith.mulf %v26, %a : f64
  %v28 = arith.mulf %v27, %a : f64
  %v29 = arith.mulf %v28, %a : f64
  %v30 = arith.mulf %v29, %a : f64
  %v31 = arith.mulf %v30, %a : f64
  %v32 = arith.mulf %v31, %a : f64
  %v33 = arith.mulf %v32, %a : f64
  %v34 = arith.mulf %v33, %a : f64
  %v35 = arith.mulf %v34, %a : f64
  %v36 = arith.mulf %v35, %a : f64
  %v37 = arith.mulf %v36, %a : f64
  %v38 = arith.mulf %v37, %a : f64
  %v39 = arith.mulf %v38, %a : f64
  %v40 = arith.mulf %v39, %a : f64
  %v41 = arith.mulf %v40, %a : f64
  %v42 = arith.mulf %v41, %a : f64
  %v43 = arith.mulf %v42, %a : f64
  %v44 = arith.mulf %v43, %a : f64
  %v45 = arith.mulf %v44, %a : f64
  %v46 = arith.mulf %v45, %a : f64
  %v47 = arith.mulf %v46, %a : f64
  %v48 = arith.mulf %v47, %a : f64
  %v49 = arith.mulf %v48, %a : f64
  %v50 = arith.mulf %v49, %a : f64
  %v51 = arith.mulf %v50, %a : f64
  %v52 = arith.mulf %v51, %a : f64
  %v53 = arith.mulf %v52, %a : f64
  %v54 = arith.mulf %v53, %a : f64
  %v55 = arith.mulf %v54, %a : f64
  %v56 = arith.mulf %v55, %a : f64
  %v57 = arith.mulf %v56, %a : f64
  %v58 = arith.mulf %v57, %a : f64
  %v59 = arith.mulf %v58, %a : f64
  %v60 = arith.mulf %v59, %a : f64
  %v61 = arith.mulf %v60, %a : f64
  %v62 = arith.mulf %v61, %a : f64
  %v63 = arith.mulf %v62, %a : f64
  %v64 = arith.mulf %v63, %a : f64
  %v65 = arith.mulf %v64, %a : f64
  %v66 = arith.mulf %v65, %a : f64
  %v67 = arith.mulf %v66, %a : f64
  %v68 = arith.mulf %v67, %a : f64
  %v69 = arith.mulf %v68, %a : f64
  %v70 = arith.mulf %v69, %a : f64
  %v71 = arith.mulf %v70, %a : f64
  %v72 = arith.mulf %v71, %a : f64
  %v73 = arith.mulf %v72, %a : f64
  %v74 = arith.mulf %v73, %a : f64
  %v75 = arith.mulf %v74, %a : f64
  %v76 = arith.mulf %v75, %a : f64
  %v77 = arith.mulf %v76, %a : f64
  %v78 = arith.mulf %v77, %a : f64
  %v79 = arith.mulf %v78, %a : f64
  %v80 = arith.mulf %v79, %a : f64
  %v81 = arith.mulf %v80, %a : f64
  %v82 = arith.mulf %v81, %a : f64
  %v83 = arith.mulf %v82, %a : f64
  %v84 = arith.mulf %v83, %a : f64
  %v85 = arith.mulf %v84, %a : f64
  %v86 = arith.mulf %v85, %a : f64
  %v87 = arith.mulf %v86, %a : f64
  %v88 = arith.mulf %v87, %a : f64
  %v89 = arith.mulf %v88, %a : f64
  %v90 = arith.mulf %v89, %a : f64
  %v91 = arith.mulf %v90, %a : f64
  %v92 = arith.mulf %v91, %a : f64
  %v93 = arith.mulf %v92, %a : f64
  %v94 = arith.mulf %v93, %a : f64
  %v95 = arith.mulf %v94, %a : f64
  %v96 = arith.mulf %v95, %a : f64
  %v97 = arith.mulf %v96, %a : f64
  %v98 = arith.mulf %v97, %a : f64
  %v99 = arith.mulf %v98, %a : f64
  %v100 = arith.mulf %v99, %a : f64
  %v101 = arith.mulf %v100, %a : f64
  %v102 = arith.mulf %v101, %a : f64
  %v103 = arith.mulf %v102, %a : f64
  %v104 = arith.mulf %v103, %a : f64
  %v105 = arith.mulf %v104, %a : f64
  %v106 = arith.mulf %v105, %a : f64
  %v107 = arith.mulf %v106, %a : f64
  %v108 = arith.mulf %v107, %a : f64
  %v109 = arith.mulf %v108, %a : f64
  %v110 = arith.mulf %v109, %a : f64
  %v111 = arith.mulf %v110, %a : f64
  %v112 = arith.mulf %v111, %a : f64
  %v113 = arith.mulf %v112, %a : f64
  %v114 = arith.mulf %v113, %a : f64
  %v115 = arith.mulf %v114, %a : f64
  %v116 = arith.mulf %v115, %a : f64
  %v117 = arith.mulf %v116, %a : f64
  %v118 = arith.mulf %v117, %a : f64
  %v119 = arith.mulf %v118, %a : f64
  %v120 = arith.mulf %v119, %a : f64
  %v121 = arith.mulf %v120, %a : f64
  %v122 = arith.mulf %v121, %a : f64
  %v123 = arith.mulf %v122, %a : f64
  %v124 = arith.mulf %v123, %a : f64
  %v125 = arith.mulf %v124, %a : f64
  %v126 = arith.mulf %v125, %a : f64
  %v127 = arith.mulf %v126, %a : f64
  %v128 = arith.mulf %v127, %a : f64
  %v129 = arith.mulf %v128, %a : f64
  %v130 = arith.mulf %v129, %a : f64
  %v131 = arith.mulf %v130, %a : f64
  %v132 = arith.mulf %v131, %a : f64
  %v133 = arith.mulf %v132, %a : f64
  %v134 = arith.mulf %v133, %a : f64
  %v135 = arith.mulf %v134, %a : f64
  %v136 = arith.mulf %v135, %a : f64
  %v137 = arith.mulf %v136, %a : f64
  %v138 = arith.mulf %v137, %a : f64
  %v139 = arith.mulf %v138, %a : f64
  %v140 = arith.mulf %v139, %a : f64
  %v141 = arith.mulf %v140, %a : f64
  %v142 = arith.mulf %v141, %a : f64
  %v143 = arith.mulf %v142, %a : f64
  %v144 = arith.mulf %v143, %a : f64
  %v145 = arith.mulf %v144, %a : f64
  %v146 = arith.mulf %v145, %a : f64
  %v147 = arith.mulf %v146, %a : f64
  %v148 = arith.mulf %v147, %a : f64
  %v149 = arith.mulf %v148, %a : f64
  %v150 = arith.mulf %v149, %a : f64
  %v151 = arith.mulf %v150, %a : f64
  %v152 = arith.mulf %v151, %a : f64
  %v153 = arith.mulf %v152, %a : f64
  %v154 = arith.mulf %v153, %a : f64
  %v155 = arith.mulf %v154, %a : f64
  %v156 = arith.mulf %v155, %a : f64
  %v157 = arith.mulf %v156, %a : f64
  %v158 = arith.mulf %v157, %a : f64
  %v159 = arith.mulf %v158, %a : f64
  %v160 = arith.mulf %v159, %a : f64
  %v161 = arith.mulf %v160, %a : f64
  %v162 = arith.mulf %v161, %a : f64
  %v163 = arith.mulf %v162, %a : f64
  %v164 = arith.mulf %v163, %a : f64
  %v165 = arith.mulf %v164, %a : f64
  %v166 = arith.mulf %v165, %a : f64
  %v167 = arith.mulf %v166, %a : f64
  %v168 = arith.mulf %v167, %a : f64
  %v169 = arith.mulf %v168, %a : f64
  %v170 = arith.mulf %v169, %a : f64
  %v171 = arith.mulf %v170, %a : f64
  %v172 = arith.mulf %v171, %a : f64
  %v173 = arith.mulf %v172, %a : f64
  %v174 = arith.mulf %v173, %a : f64
  %v175 = arith.mulf %v174, %a : f64
  %v176 = arith.mulf %v175, %a : f64
  %v177 = arith.mulf %v176, %a : f64
  %v178 = arith.mulf %v177, %a : f64
  %v179 = arith.mulf %v178, %a : f64
  %v180 = arith.mulf %v179, %a : f64
  %v181 = arith.mulf %v180, %a : f64
  %v182 = arith.mulf %v181, %a : f64
  %v183 = arith.mulf %v182, %a : f64
  %v184 = arith.mulf %v183, %a : f64
  %v185 = arith.mulf %v184, %a : f64
  %v186 = arith.mulf %v185, %a : f64
  %v187 = arith.mulf %v186, %a : f64
  %v188 = arith.mulf %v187, %a : f64
  %v189 = arith.mulf %v188, %a : f64
  %v190 = arith.mulf %v189, %a : f64
  %v191 = arith.mulf %v190, %a : f64
  %v192 = arith.mulf %v191, %a : f64
  %v193 = arith.mulf %v192, %a : f64
  %v194 = arith.mulf %v193, %a : f64
  %v195 = arith.mulf %v194, %a : f64
  %v196 = arith.mulf %v195, %a : f64
  %v197 = arith.mulf %v196, %a : f64
  %v198 = arith.mulf %v197, %a : f64
  %v199 = arith.mulf %v198, %a : f64
  %v200 = arith.mulf %v199, %a : f64
  %v201 = arith.mulf %v200, %a : f64
  %v202 = arith.mulf %v201, %a : f64
  %v203 = arith.mulf %v202, %a : f64
  %v204 = arith.mulf %v203, %a : f64
  %v205 = arith.mulf %v204, %a : f64
  %v206 = arith.mulf %v205, %a : f64
  %v207 = arith.mulf %v206, %a : f64
  %v208 = arith.mulf %v207, %a : f64
  %v209 = arith.mulf %v208, %a : f64
  %v210 = arith.mulf %v209, %a : f64
  %v211 = arith.mulf %v210, %a : f64
  %v212 = arith.mulf %v211, %a : f64
  %v213 = arith.mulf %v212, %a : f64
  %v214 = arith.mulf %v213, %a : f64
  %v215 = arith.mulf %v214, %a : f64
  %v216 = arith.mulf %v215, %a : f64
  %v217 = arith.mulf %v216, %a : f64
  %v218 = arith.mulf %v217, %a : f64
  %v219 = arith.mulf %v218, %a : f64
  %v220 = arith.mulf %v219, %a : f64
  %v221 = arith.mulf %v220, %a : f64
  %v222 = arith.mulf %v221, %a : f64
  %v223 = arith.mulf %v222, %a : f64
  %v224 = arith.mulf %v223, %a : f64
  %v225 = arith.mulf %v224, %a : f64
  %v226 = arith.mulf %v225, %a : f64
  %v227 = arith.mulf %v226, %a : f64
  %v228 = arith.mulf %v227, %a : f64
  %v229 = arith.mulf %v228, %a : f64
  %v230 = arith.mulf %v229, %a : f64
  %v231 = arith.mulf %v230, %a : f64
  %v232 = arith.mulf %v231, %a : f64
  %v233 = arith.mulf %v232, %a : f64
  %v234 = arith.mulf %v233, %a : f64
  %v235 = arith.mulf %v234, %a : f64
  %v236 = arith.mulf %v235, %a : f64
  %v237 = arith.mulf %v236, %a : f64
  %v238 = arith.mulf %v237, %a : f64
  %v239 = arith.mulf %v238, %a : f64
  %v240 = arith.mulf %v239, %a : f64
  %v241 = arith.mulf %v240, %a : f64
  %v242 = arith.mulf %v241, %a : f64
  %v243 = arith.mulf %v242, %a : f64
  %v244 = arith.mulf %v243, %a : f64
  %v245 = arith.mulf %v244, %a : f64
  %v246 = arith.mulf %v245, %a : f64
  %v247 = arith.mulf %v246, %a : f64
  %v248 = arith.mulf %v247, %a : f64
  %v249 = arith.mulf %v248, %a : f64
  %v250 = arith.mulf %v249, %a : f64
  %v251 = arith.mulf %v250, %a : f64
  %v252 = arith.mulf %v251, %a : f64
  %v253 = arith.mulf %v252, %a : f64
  %v254 = arith.mulf %v253, %a : f64
  %v255 = arith.mulf %v254, %a : f64
  %v256 = arith.mulf %v255, %a : f64
  %v257 = arith.mulf %v256, %a : f64
  %v258 = arith.mulf %v257, %a : f64
  %v259 = arith.mulf %v258, %a : f64
  %v260 = arith.mulf %v259, %a : f64
  %v261 = arith.mulf %v260, %a : f64
  %v262 = arith.mulf %v261, %a : f64
  %v263 = arith.mulf %v262, %a : f64
  %v264 = arith.mulf %v263, %a : f64
  %v265 = arith.mulf %v264, %a : f64
  %v266 = arith.mulf %v265, %a : f64
  %v267 = arith.mulf %v266, %a : f64
  %v268 = arith.mulf %v267, %a : f64
  %v269 = arith.mulf %v268, %a : f64
  %v270 = arith.mulf %v269, %a : f64
  %v271 = arith.mulf %v270, %a : f64
  %v272 = arith.mulf %v271, %a : f64
  %v273 = arith.mulf %v272, %a : f64
  %v274 = arith.mulf %v273, %a : f64
  %v275 = arith.mulf %v274, %a : f64
  %v276 = arith.mulf %v275, %a : f64
  %v277 = arith.mulf %v276, %a : f64
  %v278 = arith.mulf %v277, %a : f64
  %v279 = arith.mulf %v278, %a : f64
  %v280 = arith.mulf %v279, %a : f64
  %v281 = arith.mulf %v280, %a : f64
  %v282 = arith.mulf %v281, %a : f64
  %v283 = arith.mulf %v282, %a : f64
  %v284 = arith.mulf %v283, %a : f64
  %v285 = arith.mulf %v284, %a : f64
  %v286 = arith.mulf %v285, %a : f64
  %v287 = arith.mulf %v286, %a : f64
  %v288 = arith.mulf %v287, %a : f64
  %v289 = arith.mulf %v288, %a : f64
  %v290 = arith.mulf %v289, %a : f64
  %v291 = arith.mulf %v290, %a : f64
  %v292 = arith.mulf %v291, %a : f64
  %v293 = arith.mulf %v292, %a : f64
  %v294 = arith.mulf %v293, %a : f64
  %v295 = arith.mulf %v294, %a : f64
  %v296 = arith.mulf %v295, %a : f64
  %v297 = arith.mulf %v296, %a : f64
  %v298 = arith.mulf %v297, %a : f64
  %v299 = arith.mulf %v298, %a : f64
  %v300 = arith.mulf %v299, %a : f64
  %v301 = arith.mulf %v300, %a : f64
  %v302 = arith.mulf %v301, %a : f64
  %v303 = arith.mulf %v302, %a : f64
  %v304 = arith.mulf %v303, %a : f64
  %v305 = arith.mulf %v304, %a : f64
  %v306 = arith.mulf %v305, %a : f64
  %v307 = arith.mulf %v306, %a : f64
  %v308 = arith.mulf %v307, %a : f64
  %v309 = arith.mulf %v308, %a : f64
  %v310 = arith.mulf %v309, %a : f64
  %v311 = arith.mulf %v310, %a : f64
  %v312 = arith.mulf %v311, %a : f64
  %v313 = arith.mulf %v312, %a : f64
  %v314 = arith.mulf %v313, %a : f64
  %v315 = arith.mulf %v314, %a : f64
  %v316 = arith.mulf %v315, %a : f64
  %v317 = arith.mulf %v316, %a : f64
  %v318 = arith.mulf %v317, %a : f64
  %v319 = arith.mulf %v318, %a : f64
  %v320 = arith.mulf %v319, %a : f64
  %v321 = arith.mulf %v320, %a : f64
  %v322 = arith.mulf %v321, %a : f64
  %v323 = arith.mulf %v322, %a : f64
  %v324 = arith.mulf %v323, %a : f64
  %v325 = arith.mulf %v324, %a : f64
  %v326 = arith.mulf %v325, %a : f64
  %v327 = arith.mulf %v326, %a : f64
  %v328 = arith.mulf %v327, %a : f64
  %v329 = arith.mulf %v328, %a : f64
  %v330 = arith.mulf %v329, %a : f64
  %v331 = arith.mulf %v330, %a : f64
  %v332 = arith.mulf %v331, %a : f64
  %v333 = arith.mulf %v332, %a : f64
  %v334 = arith.mulf %v333, %a : f64
  %v335 = arith.mulf %v334, %a : f64
  %v336 = arith.mulf %v335, %a : f64
  %v337 = arith.mulf %v336, %a : f64
  %v338 = arith.mulf %v337, %a : f64
  %v339 = arith.mulf %v338, %a : f64
  %v340 = arith.mulf %v339, %a : f64
  %v341 = arith.mulf %v340, %a : f64
  %v342 = arith.mulf %v341, %a : f64
  %v343 = arith.mulf %v342, %a : f64
  %v344 = arith.mulf %v343, %a : f64
  %v345 = arith.mulf %v344, %a : f64
  %v346 = arith.mulf %v345, %a : f64
  %v347 = arith.mulf %v346, %a : f64
  %v348 = arith.mulf %v347, %a : f64
  %v349 = arith.mulf %v348, %a : f64
  %v350 = arith.mulf %v349, %a : f64
  %v351 = arith.mulf %v350, %a : f64
  %v352 = arith.mulf %v351, %a : f64
  %v353 = arith.mulf %v352, %a : f64
  %v354 = arith.mulf %v353, %a : f64
  %v355 = arith.mulf %v354, %a : f64
  %v356 = arith.mulf %v355, %a : f64
  %v357 = arith.mulf %v356, %a : f64
  %v358 = arith.mulf %v357, %a : f64
  %v359 = arith.mulf %v358, %a : f64
  %v360 = arith.mulf %v359, %a : f64
  %v361 = arith.mulf %v360, %a : f64
  %v362 = arith.mulf %v361, %a : f64
  %v363 = arith.mulf %v362, %a : f64
  %v364 = arith.mulf %v363, %a : f64
  %v365 = arith.mulf %v364, %a : f64
  %v366 = arith.mulf %v365, %a : f64
  %v367 = arith.mulf %v366, %a : f64
  %v368 = arith.mulf %v367, %a : f64
  %v369 = arith.mulf %v368, %a : f64
  %v370 = arith.mulf %v369, %a : f64
  %v371 = arith.mulf %v370, %a : f64
  %v372 = arith.mulf %v371, %a : f64
  %v373 = arith.mulf %v372, %a : f64
  %v374 = arith.mulf %v373, %a : f64
  %v375 = arith.mulf %v374, %a : f64
  %v376 = arith.mulf %v375, %a : f64
  %v377 = arith.mulf %v376, %a : f64
  %v378 = arith.mulf %v377, %a : f64
  %v379 = arith.mulf %v378, %a : f64
  %v380 = arith.mulf %v379, %a : f64
  %v381 = arith.mulf %v380, %a : f64
  %v382 = arith.mulf %v381, %a : f64
  %v383 = arith.mulf %v382, %a : f64
  %v384 = arith.mulf %v383, %a : f64
  %v385 = arith.mulf %v384, %a : f64
  %v386 = arith.mulf %v385, %a : f64
  %v387 = arith.mulf %v386, %a : f64
  %v388 = arith.mulf %v387, %a : f64
  %v389 = arith.mulf %v388, %a : f64
  %v390 = arith.mulf %v389, %a : f64
  %v391 = arith.mulf %v390, %a : f64
  %v392 = arith.mulf %v391, %a : f64
  %v393 = arith.mulf %v392, %a : f64
  %v394 = arith.mulf %v393, %a : f64
  %v395 = arith.mulf %v394, %a : f64
  %v396 = arith.mulf %v395, %a : f64
  %v397 = arith.mulf %v396, %a : f64
  %v398 = arith.mulf %v397, %a : f64
  %v399 = arith.mulf %v398, %a : f64
  %v400 = arith.mulf %v399, %a : f64
  return %v400 : f64
}

//! `--moon-linalg-to-blas`: linalg matrix products on f32/f64 memrefs large
//! enough to gain become calls of moonrt's BLAS (`moonrt_?gemm`, `?gemv`,
//! `?dot`).
//!
//! A product is recognized from its operands' indexing (one map per operand,
//! each naming loop dimensions), whether the op is a named one (its maps are
//! known) or a `linalg.generic` (reverse mode turns named products into
//! generics, sometimes with extra inputs its body does not read). Each loop
//! dimension then has a role: the batch (in both factors and the output),
//! the rows `i` (one factor and the output), the columns `j` (the other
//! factor and the output), or the contraction `k` (both factors). Which
//! roles are present picks the routine; the order of each operand's
//! dimensions picks the transpose flags. The routine takes one dimension
//! per role; the batch and any further dimension of a role become loops
//! around the calls.

use mlir_sys as sys;
use moonc_ir::ir::error_at;
use moonc_ir::ir::{Builder, Op, Region, Type, Value};
use moonc_ir::linalg::{indexing_maps, projected_dims, split_ins_outs};
use moonc_ir::{
    Error,
    pass::{self, OptionValues, PassInfo, PassOption},
};
use std::collections::HashMap;

/// The default of `min-flops` (and of `--moon-blas-min-flops`, which
/// `moon-cpu-pipeline` passes on): the least multiply-adds of one call for
/// which BLAS beats the loops. `bench/blas/threshold.sh` times both (on 2
/// AMD EPYC cores with OpenBLAS; `bench/blas/threshold.txt`): BLAS costs
/// about 400 ns per call, and the loops win below these crossovers, in
/// multiply-adds:
///
/// - square f64 matmul, dynamic shapes: between n = 8 (512) and 12 (1728);
/// - static shapes: near n = 12 (1728), but at n = 16 (4096) the loops are
///   still 1.7x faster (LLVM specializes power-of-two sizes), and from
///   n = 20 (8000) BLAS wins, up to 20-40x at n = 40 and beyond;
/// - matvec: between n = 32 (1024) and 40 (1600), static or dynamic.
///
/// 1500 loses the least time over these sizes; a threshold per routine
/// would fit better (the loops of static gemm keep up longer).
pub const DEFAULT_MIN_FLOPS: u64 = 1500;

/// The registration of `--moon-linalg-to-blas`.
pub static LINALG_TO_BLAS: PassInfo = PassInfo {
    argument: "moon-linalg-to-blas",
    summary: "Call moonrt's BLAS for linalg matrix products large enough to gain from it",
    description: r#"
Rewrites matrix products on memrefs of f32 or f64 as calls of moonrt's BLAS
routines (docs/blas.md), which linalg accumulates into its output, so
`alpha = beta = 1`:

- `linalg.matmul`: `moonrt_?gemm` with the transpose flags of the factors
  (a transposed factor is an `indexing_maps` attribute of the matmul);
- `linalg.matvec` and `linalg.vecmat`: `moonrt_?gemv`, transposed for vecmat;
- `linalg.dot`: `moonrt_?dot`, its result added to the rank-0 output;
- `linalg.batch_matmul` (its factors transposed or not, by `indexing_maps`):
  an `scf.for` over the batch calling `gemm` on views of each batch
  element (`memref.reinterpret_cast`s of the operands' bases);
- a `linalg.generic` that is one of these: a body `out + x * y` (`arith.mulf`
  then `arith.addf`, operands in either order) over two inputs, projected
  permutation maps whose loops each index the output and one or both
  factors (or all three for the batch), parallel loops exactly those of the
  output. Inputs the body does not read are ignored; a transposed factor or
  output becomes a transpose flag or swapped factors. Reverse mode produces
  such generics for the adjoints of `linalg.matmul`;
- in a matrix product, loops beyond one per role (the batch, the images of
  a convolution's product whose filter has no batch, the second
  contraction of a filter gradient) become `scf.for`s around the `gemm`
  calls, on views like the batch's; of the loops of one role the call
  takes the largest.

Only products of at least `min-flops` multiply-adds per call (m n k for
gemm, m n for gemv, n for dot; default 1500) are rewritten: below that the
loops are faster (`bench/blas/threshold.txt`, docs/linalg-to-blas.md).
With static sizes the choice is made here, and smaller products are left
alone; with dynamic sizes, an `scf.if` on the count at run time holds the
call and the original operation.
`min-flops=0` turns the pass off. Operations on tensors, other element
types, memrefs without a strided layout, other bodies and other maps are
left alone. The routines are declared (with the C interface) when the
module does not declare them; a symbol of that name with another type is an
error at the product.

`moon-cpu-pipeline` runs the pass after `moon-uniform-buffers`, before
linalg becomes loops, with `min-flops` from `--moon-blas-min-flops`.

Before (`--moon-linalg-to-blas`, 64 * 16 * 32 multiply-adds):

```mlir
func.func @mm(%a: memref<64x32xf64>, %b: memref<32x16xf64>, %c: memref<64x16xf64>) {
  linalg.matmul ins(%a, %b : memref<64x32xf64>, memref<32x16xf64>)
                outs(%c : memref<64x16xf64>)
  return
}
```

After:

```mlir
func.func @mm(%a: memref<64x32xf64>, %b: memref<32x16xf64>, %c: memref<64x16xf64>) {
  %no = arith.constant 0 : i32
  %one = arith.constant 1.000000e+00 : f64
  %0 = memref.cast %a : memref<64x32xf64> to memref<?x?xf64, strided<[?, ?], offset: ?>>
  %1 = memref.cast %b : memref<32x16xf64> to memref<?x?xf64, strided<[?, ?], offset: ?>>
  %2 = memref.cast %c : memref<64x16xf64> to memref<?x?xf64, strided<[?, ?], offset: ?>>
  call @moonrt_dgemm(%no, %no, %one, %0, %1, %one, %2) : (i32, i32, f64, ...) -> ()
  return
}
func.func private @moonrt_dgemm(i32, i32, f64, memref<?x?xf64, strided<[?, ?], offset: ?>>,
    memref<?x?xf64, strided<[?, ?], offset: ?>>, f64,
    memref<?x?xf64, strided<[?, ?], offset: ?>>) attributes {llvm.emit_c_interface}
```
"#,
    op_name: "builtin.module",
    dependent_dialects: moonc_ir::dependent_dialects,
    options: &[PassOption {
        name: "min-flops",
        description: "the least multiply-adds of one call for which a product calls BLAS (0 turns the pass off)",
        default: DEFAULT_MIN_FLOPS,
    }],
    run,
};

fn run(module: Op, options: OptionValues) -> Result<(), Error> {
    let min_flops = options.get("min-flops");
    if min_flops == 0 {
        return pass::unchanged();
    }
    let products: Vec<(Op, Product)> = module
        .walk()
        .into_iter()
        .filter_map(|op| Some((op, recognize(op)?)))
        .collect();
    if products.is_empty() {
        return pass::unchanged();
    }
    for (op, product) in products {
        lower(op, &product, min_flops)?;
    }
    Ok(())
}

/// One operand of a product: the memref, and the loop dimension that
/// indexes each of its dimensions.
#[derive(Clone)]
struct Operand {
    value: Value,
    dims: Vec<usize>,
}

/// The BLAS routine a product becomes.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Routine {
    Gemm,
    Gemv,
    Dot,
}

/// A product `c += a b` as BLAS takes it: for gemm, `c[i, j] += a[i, k]
/// b[k, j]` with `a` and `b` maybe transposed (and a batch dimension in
/// all three); for gemv, `a` is the matrix and `b` the vector; for dot,
/// `c` has rank 0.
struct Product {
    routine: Routine,
    a: Operand,
    b: Operand,
    c: Operand,
    /// The contraction dimension.
    k: usize,
    /// The dimensions looped over around the calls (gemm only): the batch,
    /// and the dimensions of a role beyond the one the routine takes.
    outer: Vec<usize>,
    /// `f32` or `f64`.
    element: Type,
    /// The module whose symbols the calls name (the nearest symbol table).
    module: Op,
}

/// The product `op` computes, when it is one this pass rewrites.
fn recognize(op: Op) -> Option<Product> {
    let name = op.name();
    let (a, b, c, loops) = if name == "linalg.generic" {
        generic_operands(op)?
    } else {
        let operands = op.operands();
        if operands.len() != 3 || !op.results().is_empty() {
            return None;
        }
        let (a, b, c, loops): (&[usize], &[usize], &[usize], usize) =
            match name.strip_prefix("linalg.")? {
                "matmul" => (&[0, 2], &[2, 1], &[0, 1], 3),
                "batch_matmul" => (&[0, 1, 3], &[0, 3, 2], &[0, 1, 2], 4),
                "matvec" => (&[0, 1], &[1], &[0], 2),
                "vecmat" => (&[1], &[1, 0], &[0], 2),
                "dot" => (&[0], &[0], &[], 1),
                _ => return None,
            };
        // matmul and batch_matmul carry their indexing maps, which may
        // transpose a factor (MLIR 19 spelled that matmul_transpose_a/_b
        // and their batch forms) or broadcast one: those maps decide.
        let dims: Vec<Vec<usize>> = if op.attr("indexing_maps").is_some() {
            indexing_maps(op)
                .iter()
                .map(|map| projected_dims(map))
                .collect::<Option<_>>()?
        } else {
            vec![a.to_vec(), b.to_vec(), c.to_vec()]
        };
        let [a, b, c] = <[Vec<usize>; 3]>::try_from(dims).ok()?;
        let operand = |i: usize, dims: Vec<usize>| Operand {
            value: operands[i],
            dims,
        };
        (operand(0, a), operand(1, b), operand(2, c), loops)
    };
    let element = c.value.ty().element();
    let blas_memref = |v: Value, rank: usize| {
        let ty = v.ty();
        ty.is_memref() && ty.shape().len() == rank && ty.element() == element && strided(ty)
    };
    let supported = [&a, &b, &c]
        .iter()
        .all(|o| blas_memref(o.value, o.dims.len()))
        && ["f32", "f64"].contains(&element.to_string().as_str());
    // The routines are declared in, and called from, a builtin.module.
    let module = symbol_table(op).filter(|t| t.name() == "builtin.module")?;
    if !supported {
        return None;
    }
    classify(a, b, c, loops, element, module)
}

/// The nearest operation around `op` that is a symbol table.
fn symbol_table(op: Op) -> Option<Op> {
    let mut around = op.parent();
    while let Some(candidate) = around {
        // SAFETY: the operation is live; the table made to test it is
        // destroyed at once.
        let is_table = unsafe {
            let table = sys::mlirSymbolTableCreate(candidate.0);
            let is_table = !table.ptr.is_null();
            if is_table {
                sys::mlirSymbolTableDestroy(table);
            }
            is_table
        };
        if is_table {
            return Some(candidate);
        }
        around = candidate.parent();
    }
    None
}

/// The factors, output and loop count of a `linalg.generic` whose body is
/// `out + x * y` over inputs `x` and `y` (in either order) and whose maps
/// are projected permutations, parallel exactly on the output's loops.
fn generic_operands(op: Op) -> Option<(Operand, Operand, Operand, usize)> {
    let (ins, outs) = split_ins_outs(op);
    if outs != 1 || !op.results().is_empty() {
        return None;
    }
    let body = op.regions().first()?.entry()?;
    let args = body.args();
    let [mul, add, yield_] = body.ops()[..] else {
        return None;
    };
    if mul.name() != "arith.mulf" || add.name() != "arith.addf" || yield_.operands().len() != 1 {
        return None;
    }
    let product = mul.result(0);
    let out = *args.get(ins)?;
    let add_operands = add.operands();
    let accumulates = add_operands == [out, product] || add_operands == [product, out];
    if !accumulates || yield_.operand(0) != add.result(0) {
        return None;
    }
    // The factors: inputs of the generic read by the multiplication.
    let input = |v: Value| {
        let position = args[..ins].iter().position(|&arg| arg == v)?;
        Some(position)
    };
    let (x, y) = (input(mul.operand(0))?, input(mul.operand(1))?);
    let maps = indexing_maps(op);
    let iterators = op.attr("iterator_types")?.elements();
    let operands = op.operands();
    let operand = |i: usize| {
        Some(Operand {
            value: operands[i],
            dims: projected_dims(&maps[i])?,
        })
    };
    let c = operand(ins)?;
    let parallel_on_output = iterators
        .iter()
        .enumerate()
        .all(|(d, kind)| kind.to_string().contains("parallel") == c.dims.contains(&d));
    if !parallel_on_output {
        return None;
    }
    Some((operand(x)?, operand(y)?, c, iterators.len()))
}

/// The product of factors `a`, `b` into `c` over `loops` loop dimensions,
/// if each loop has a role BLAS knows (see the module's documentation).
/// A role with several dimensions keeps one for the routine and the
/// others, like the batch, become loops around the calls.
fn classify(
    a: Operand,
    b: Operand,
    c: Operand,
    loops: usize,
    element: Type,
    module: Op,
) -> Option<Product> {
    let (mut outer, mut rows, mut cols, mut k) = (vec![], vec![], vec![], vec![]);
    for d in 0..loops {
        match (
            a.dims.contains(&d),
            b.dims.contains(&d),
            c.dims.contains(&d),
        ) {
            (true, true, true) => outer.push(d),
            (true, false, true) => rows.push(d),
            (false, true, true) => cols.push(d),
            (true, true, false) => k.push(d),
            _ => return None,
        }
    }
    // The routine takes the largest dimension of each role (unknown sizes
    // count as large), of equal ones the innermost in the operands (so
    // that its matrices have a unit stride); the others become loops.
    let size = |d: usize| {
        [&a, &b, &c]
            .iter()
            .find_map(|o| {
                let position = o.dims.iter().position(|&e| e == d)?;
                o.value.ty().shape()[position]
            })
            .unwrap_or(i64::MAX)
    };
    let depth = |d: usize| {
        [&a, &b, &c]
            .iter()
            .filter_map(|o| Some(o.dims.len() - o.dims.iter().position(|&e| e == d)?))
            .min()
            .unwrap_or(usize::MAX)
    };
    let mut keep = |role: &mut Vec<usize>| -> Option<usize> {
        let kept = *role
            .iter()
            .min_by_key(|&&d| (std::cmp::Reverse(size(d)), depth(d)))?;
        outer.extend(role.iter().filter(|&&d| d != kept));
        Some(kept)
    };
    let k = keep(&mut k)?;
    let (row, col) = (keep(&mut rows), keep(&mut cols));
    outer.sort_unstable();
    let routine = match (row, col) {
        (Some(_), Some(_)) => Routine::Gemm,
        (Some(_), None) | (None, Some(_)) => Routine::Gemv,
        (None, None) => Routine::Dot,
    };
    if !outer.is_empty() && routine != Routine::Gemm {
        return None;
    }
    // gemm: `a` holds the output's row (its first dimension apart from the
    // loops), `b` its column; gemv: `a` is the matrix.
    let first_row = c.dims.iter().find(|d| !outer.contains(d));
    let swap = match routine {
        Routine::Gemm => first_row.is_some_and(|d| !a.dims.contains(d)),
        Routine::Gemv => a.dims.len() == 1,
        Routine::Dot => false,
    };
    let (a, b) = if swap { (b, a) } else { (a, b) };
    Some(Product {
        routine,
        a,
        b,
        c,
        k,
        outer,
        element,
        module,
    })
}

/// Whether the memref type `ty` has a strided layout in the default
/// memory space, so that it casts to the routines' argument types.
fn strided(ty: Type) -> bool {
    let rank = ty.shape().len();
    let mut strides = vec![0i64; rank.max(1)];
    let mut offset = 0i64;
    // SAFETY: `ty` is a live memref type and `strides` holds its rank.
    unsafe {
        sys::mlirMemRefTypeGetMemorySpace(ty.0).ptr.is_null()
            && sys::mlirMemRefTypeGetStridesAndOffset(ty.0, strides.as_mut_ptr(), &mut offset).value
                != 0
    }
}

impl Product {
    /// The operands, output first (for sizes).
    fn operands(&self) -> [&Operand; 3] {
        [&self.c, &self.a, &self.b]
    }

    /// The static size of loop dimension `d`, if an operand has one.
    fn static_size(&self, d: usize) -> Option<i64> {
        self.operands().iter().find_map(|o| {
            let position = o.dims.iter().position(|&e| e == d)?;
            o.value.ty().shape()[position]
        })
    }

    /// The size of loop dimension `d` as an index value.
    fn size(&self, b: &mut Builder, d: usize) -> Value {
        if let Some(n) = self.static_size(d) {
            return b.index(n);
        }
        let (value, position) = self
            .operands()
            .iter()
            .find_map(|o| Some((o.value, o.dims.iter().position(|&e| e == d)?)))
            .expect("every loop dimension indexes an operand");
        let position = b.index(position as i64);
        b.value("memref.dim", &[value, position], b.ctx.index(), &[])
    }

    /// The loop dimensions whose sizes multiply into one call's
    /// multiply-adds: all but the outer loops.
    fn call_dims(&self) -> Vec<usize> {
        let mut dims: Vec<usize> = self.c.dims.clone();
        dims.push(self.k);
        dims.retain(|d| !self.outer.contains(d));
        dims
    }

    /// The dimensions of `o` one call sees.
    fn call_operand_dims(&self, o: &Operand) -> Vec<usize> {
        let mut dims = o.dims.clone();
        dims.retain(|d| !self.outer.contains(d));
        dims
    }
}

/// Replaces the product `op` by BLAS calls when it has at least
/// `min_flops` multiply-adds per call: at once for static sizes, under an
/// `scf.if` (the original in the other branch) for dynamic ones.
fn lower(op: Op, product: &Product, min_flops: u64) -> Result<(), Error> {
    let dims = product.call_dims();
    let sizes: Option<Vec<i64>> = dims.iter().map(|&d| product.static_size(d)).collect();
    let mut b = Builder::before(op);
    if let Some(sizes) = sizes {
        let flops = sizes
            .iter()
            .try_fold(1u64, |n, &s| n.checked_mul(u64::try_from(s).ok()?))
            .unwrap_or(u64::MAX);
        if flops < min_flops {
            return Ok(());
        }
        call(&mut b, op, product)?;
        op.erase();
        return Ok(());
    }
    // The count at run time: the static sizes' product times the others.
    let index = b.ctx.index();
    let known: i64 = dims
        .iter()
        .filter_map(|&d| product.static_size(d))
        .fold(1, i64::saturating_mul);
    let mut flops = None;
    for &d in &dims {
        if product.static_size(d).is_none() {
            let size = product.size(&mut b, d);
            flops = Some(match flops {
                None => size,
                Some(f) => b.value("arith.muli", &[f, size], index, &[]),
            });
        }
    }
    let mut flops = flops.expect("a dynamic size");
    if known != 1 {
        let known = b.index(known);
        flops = b.value("arith.muli", &[flops, known], index, &[]);
    }
    let threshold = b.index(i64::try_from(min_flops).unwrap_or(i64::MAX));
    let uge = b.ctx.attr("9 : i64");
    let i1 = b.ctx.ty("i1");
    let large = b.value("arith.cmpi", &[flops, threshold], i1, &[("predicate", uge)]);
    let (_, then_block, else_block) = b.if_else(large, &[]);
    let then_yield =
        Builder::at_end(then_block, b.loc).create("scf.yield", &[], &[], &[], &[], &[]);
    let else_yield =
        Builder::at_end(else_block, b.loc).create("scf.yield", &[], &[], &[], &[], &[]);
    call(&mut Builder::before(then_yield), op, product)?;
    op.move_before(else_yield);
    Ok(())
}

/// Emits the BLAS calls of `product` (of `op`) with `b`: one call, or
/// loops over the outer dimensions calling `gemm` on views.
fn call(b: &mut Builder, op: Op, product: &Product) -> Result<(), Error> {
    let operands = [&product.a, &product.b, &product.c];
    if product.outer.is_empty() {
        return call_routine(b, op, product, operands.map(|o| o.value));
    }
    // Each operand's layout, then a loop per outer dimension, and in the
    // innermost one a view of each operand.
    let layouts = operands.map(|o| Layout::of(b, o));
    let mut inner = *b;
    let mut indices = HashMap::new();
    for &d in &product.outer {
        let upper = product.size(&mut inner, d);
        let lower = inner.index(0);
        let step = inner.index(1);
        let (region, body) = Region::with_block(&[inner.ctx.index()], inner.loc);
        inner.create("scf.for", &[lower, upper, step], &[], &[], &[region], &[]);
        region.destroy();
        let yield_ = Builder::at_end(body, inner.loc).create("scf.yield", &[], &[], &[], &[], &[]);
        indices.insert(d, body.args()[0]);
        inner = Builder::before(yield_);
    }
    let views = layouts.map(|layout| layout.view(&mut inner, &indices));
    call_routine(&mut inner, op, product, views)
}

/// Where an operand's elements are (`memref.extract_strided_metadata`),
/// for views of it at given indices of its outer dimensions.
struct Layout {
    /// The operand's loop dimensions.
    dims: Vec<usize>,
    base: Value,
    offset: Value,
    sizes: Vec<Value>,
    strides: Vec<Value>,
    element: Type,
}

impl Layout {
    fn of(b: &mut Builder, o: &Operand) -> Layout {
        let ty = o.value.ty();
        let rank = o.dims.len();
        let index = b.ctx.index();
        let base_ty = b.ctx.ty(&format!("memref<{}>", ty.element()));
        let mut types = vec![base_ty, index];
        types.extend(vec![index; 2 * rank]);
        let metadata = b.create(
            "memref.extract_strided_metadata",
            &[o.value],
            &types,
            &[],
            &[],
            &[],
        );
        let results = metadata.results();
        Layout {
            dims: o.dims.clone(),
            base: results[0],
            offset: results[1],
            sizes: results[2..2 + rank].to_vec(),
            strides: results[2 + rank..].to_vec(),
            element: ty.element(),
        }
    }

    /// The view of the operand's kept dimensions at `indices` of its outer
    /// ones: a `memref.reinterpret_cast` of its base with the offset moved
    /// by each index times its stride. (A rank-reducing `memref.subview`
    /// would be ambiguous when kept and dropped dimensions both have size
    /// 1, and canonicalization may then keep the wrong one.)
    fn view(&self, b: &mut Builder, indices: &HashMap<usize, Value>) -> Value {
        let index = b.ctx.index();
        let mut offset = self.offset;
        let mut sizes = vec![];
        let mut strides = vec![];
        for (position, d) in self.dims.iter().enumerate() {
            if let Some(&i) = indices.get(d) {
                let step = b.value("arith.muli", &[i, self.strides[position]], index, &[]);
                offset = b.value("arith.addi", &[offset, step], index, &[]);
            } else {
                sizes.push(self.sizes[position]);
                strides.push(self.strides[position]);
            }
        }
        let rank = sizes.len();
        let mut operands = vec![self.base, offset];
        operands.extend(&sizes);
        operands.extend(&strides);
        let ctx = b.ctx;
        let dynamic = vec![i64::MIN.to_string(); rank].join(", ");
        b.value(
            "memref.reinterpret_cast",
            &operands,
            strided_type(b, self.element, rank),
            &[
                (
                    "static_offsets",
                    ctx.attr(&format!("array<i64: {}>", i64::MIN)),
                ),
                ("static_sizes", ctx.attr(&format!("array<i64: {dynamic}>"))),
                (
                    "static_strides",
                    ctx.attr(&format!("array<i64: {dynamic}>")),
                ),
                (
                    "operandSegmentSizes",
                    ctx.attr(&format!("array<i32: 1, 1, {rank}, {rank}>")),
                ),
            ],
        )
    }
}

/// The fully dynamic strided memref type of `rank` the routines take.
fn strided_type(b: &Builder, element: Type, rank: usize) -> Type {
    let shape = "?x".repeat(rank);
    let strides = vec!["?"; rank].join(", ");
    b.ctx.ty(&format!(
        "memref<{shape}{element}, strided<[{strides}], offset: ?>>"
    ))
}

/// `v` cast to the routines' strided type of its rank.
fn cast(b: &mut Builder, v: Value) -> Value {
    let ty = strided_type(b, v.ty().element(), v.ty().shape().len());
    if v.ty() == ty {
        v
    } else {
        b.value("memref.cast", &[v], ty, &[])
    }
}

/// Calls the routine of `product` on `[a, b, c]` (rank 2 for gemm): `c +=
/// a b` with the transpose flags their dimensions give.
fn call_routine(
    b: &mut Builder,
    op: Op,
    product: &Product,
    [x, y, out]: [Value; 3],
) -> Result<(), Error> {
    let element = product.element;
    let p = if element.to_string() == "f32" {
        's'
    } else {
        'd'
    };
    let same = x == y;
    let x = cast(b, x);
    let y = if same { x } else { cast(b, y) };
    match product.routine {
        Routine::Gemm => {
            let one = b.float(element, 1.0);
            // `a` holds the output's row dimension: transposed when it
            // comes second in `a`; `b` likewise for the contraction.
            let ta = product.call_operand_dims(&product.a)[0] == product.k;
            let tb = product.call_operand_dims(&product.b)[0] != product.k;
            let fa = flag(b, ta);
            let (ta, tb) = (fa, if tb == ta { fa } else { flag(b, tb) });
            let out = cast(b, out);
            call_declared(
                b,
                op,
                product,
                p,
                "gemm",
                &[ta, tb, one, x, y, one, out],
                None,
            )?;
        }
        Routine::Gemv => {
            let one = b.float(element, 1.0);
            let trans = flag(b, product.a.dims[0] == product.k);
            let out = cast(b, out);
            call_declared(
                b,
                op,
                product,
                p,
                "gemv",
                &[trans, one, x, y, one, out],
                None,
            )?;
        }
        Routine::Dot => {
            let dot = call_declared(b, op, product, p, "dot", &[x, y], Some(element))?
                .expect("dot returns its result");
            let old = b.value("memref.load", &[out], element, &[]);
            let sum = b.value("arith.addf", &[old, dot], element, &[]);
            b.create("memref.store", &[sum, out], &[], &[], &[], &[]);
        }
    }
    Ok(())
}

/// An `i32` flag, 1 or 0.
fn flag(b: &mut Builder, on: bool) -> Value {
    let attr = b.ctx.attr(&format!("{} : i32", i32::from(on)));
    b.value("arith.constant", &[], b.ctx.ty("i32"), &[("value", attr)])
}

/// Calls `moonrt_{p}{routine}` with `args`, declaring it with the C
/// interface in the module of `product` when it is not declared; returns
/// its result, if any. A symbol of that name with another type is an
/// error at `op`.
fn call_declared(
    b: &mut Builder,
    op: Op,
    product: &Product,
    p: char,
    routine: &str,
    args: &[Value],
    result: Option<Type>,
) -> Result<Option<Value>, Error> {
    let name = format!("moonrt_{p}{routine}");
    let params: Vec<String> = args.iter().map(|a| a.ty().to_string()).collect();
    let results = result.map(|t| t.to_string()).unwrap_or_default();
    let ty = b
        .ctx
        .attr(&format!("({}) -> ({results})", params.join(", ")));
    let body = product.module.regions()[0]
        .entry()
        .expect("a module has a body");
    let existing = body
        .ops()
        .into_iter()
        .find(|o| o.attr("sym_name").and_then(|a| a.string()).as_deref() == Some(name.as_str()));
    match existing {
        Some(f) if f.name() == "func.func" && f.attr("function_type") == Some(ty) => {}
        Some(_) => {
            return Err(error_at(
                op,
                &format!(
                    "cannot call BLAS for this product: @{name} is already defined, but not as `func.func private @{name}{ty}`"
                ),
            ));
        }
        None => {
            Builder::at_end(body, b.loc).private_function(
                &name,
                ty,
                Region::new(),
                &[("llvm.emit_c_interface", b.ctx.attr("unit"))],
            );
        }
    }
    let callee = b.ctx.attr(&format!("@{name}"));
    let results: Vec<Type> = result.into_iter().collect();
    let call = b.create("func.call", args, &results, &[("callee", callee)], &[], &[]);
    Ok(call.results().first().copied())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `moon-cpu-pipeline`'s default (`--moon-blas-min-flops`, defined in
    /// C++) is the pass's.
    #[test]
    fn the_pipeline_default_is_the_pass_default() {
        assert_eq!(moonc_ir::options::blas_min_flops(), DEFAULT_MIN_FLOPS);
    }
}

//! `--moon-conv-to-gemm`: 2-D convolutions on memrefs become an im2col
//! copy and a matrix product, which `moon-linalg-to-blas` then hands to
//! BLAS — and whose derivatives, by the rules of the copy and of the
//! product, are a col2im accumulation and two more matrix products.
//!
//! A convolution's loop nest does `F C KH KW OH OW` multiply-adds per image
//! with a reuse pattern no generic loop optimization here exploits; as a
//! product of the filter (`F x C KH KW`) and the image's patches (`C KH KW
//! x OH OW`) it runs at BLAS's speed, and so do the weight gradient (the
//! output's adjoint times the patches) and the patches' adjoint (the
//! filter transposed times the output's adjoint) that reverse mode derives
//! from the product.

use moonc_ir::ir::{Builder, Op, Value};
use moonc_ir::linalg::build_generic;
use moonc_ir::{
    Error,
    pass::{OptionValues, PassInfo, PassOption},
};

/// The registration of `--moon-conv-to-gemm`.
pub static CONV_TO_GEMM: PassInfo = PassInfo {
    argument: "moon-conv-to-gemm",
    summary: "Rewrite 2-D convolutions on memrefs as an im2col copy and a matrix product",
    description: r#"
Rewrites `linalg.conv_2d_nchw_fchw` on memrefs of f32 or f64 with static
shapes (filter and output with the identity layout) as:

- an im2col copy: a `linalg.generic` copying each image's patches into a
  new buffer `N x C x KH x KW x OH x OW` (its input map carries the
  strides and dilations), freed after the product; a 1x1 convolution of
  stride 1 reads the image itself instead;
- a product `linalg.generic` (`out + filter * patches`) of the filter
  collapsed to `F x (C KH KW)` and the patches collapsed to
  `N x (C KH KW) x (OH OW)` into the output collapsed to `N x F x (OH OW)`,
  which `moon-linalg-to-blas` turns into one `gemm` per image.

Reverse mode differentiates the two as it does any copy and product: the
filter's adjoint is the output adjoint times the patches (a `gemm` per
image), the image's a `gemm` into the patches' adjoint and then a col2im
loop nest adding each patch element back into the image's adjoint.

Only convolutions with at least `min-flops` multiply-adds per image (`F C
KH KW OH OW`, the size of one `gemm`) are rewritten; `min-flops=0` turns
the pass off. `moon-bufferize` runs this rewrite on the functions it
converts, with `--moon-blas-min-flops`, so that a model from a frontend is
differentiated in this form.

Before:

```mlir
linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
  ins(%x, %w : memref<8x3x34x34xf32>, memref<16x3x3x3xf32>) outs(%y : memref<8x16x32x32xf32>)
```

After:

```mlir
%col = memref.alloc() : memref<8x3x3x3x32x32xf32>
linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d4 + d2, d5 + d3)>,
                                 affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4, d5)>], ...}
  ins(%x : memref<8x3x34x34xf32>) outs(%col : memref<8x3x3x3x32x32xf32>) { ... linalg.yield %in }
%patches = memref.collapse_shape %col [[0], [1, 2, 3], [4, 5]] : ... into memref<8x27x1024xf32>
%filter = memref.collapse_shape %w [[0], [1, 2, 3]] : ... into memref<16x27xf32>
%out = memref.collapse_shape %y [[0], [1], [2, 3]] : ... into memref<8x16x1024xf32>
linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d3)>,
                                 affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>,
                                 affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], ...}
  ins(%filter, %patches : ...) outs(%out : ...) { mulf, addf }
memref.dealloc %col
```
"#,
    op_name: "builtin.module",
    dependent_dialects: moonc_ir::dependent_dialects,
    options: &[PassOption {
        name: "min-flops",
        description: "the least multiply-adds per image for which a convolution is rewritten (0 turns the pass off)",
        default: crate::linalg_to_blas::DEFAULT_MIN_FLOPS,
    }],
    run,
};

fn run(module: Op, options: OptionValues) -> Result<(), Error> {
    conv_to_gemm(module, options.get("min-flops"));
    Ok(())
}

/// Rewrites the convolutions in `op` (see [`CONV_TO_GEMM`]) of at least
/// `min_flops` multiply-adds per image.
pub(crate) fn conv_to_gemm(op: Op, min_flops: u64) {
    if min_flops == 0 {
        return;
    }
    for conv in op.walk() {
        if conv.name() == "linalg.conv_2d_nchw_fchw"
            && let Some(shape) = Conv::of(conv)
            && shape.flops_per_image() >= min_flops
        {
            rewrite(conv, &shape);
        }
    }
}

/// A `linalg.conv_2d_nchw_fchw` this pass rewrites: its operands, sizes,
/// strides and dilations.
struct Conv {
    x: Value,
    w: Value,
    y: Value,
    /// `[N, C, H, W]`, `[F, C, KH, KW]`, `[N, F, OH, OW]`.
    x_shape: [i64; 4],
    w_shape: [i64; 4],
    y_shape: [i64; 4],
    strides: [i64; 2],
    dilations: [i64; 2],
}

impl Conv {
    fn of(op: Op) -> Option<Conv> {
        let operands = op.operands();
        let [x, w, y] = operands[..] else {
            return None;
        };
        if !op.results().is_empty() {
            return None;
        }
        let element = y.ty().element();
        if !["f32", "f64"].contains(&element.to_string().as_str()) {
            return None;
        }
        let shape = |v: Value| -> Option<[i64; 4]> {
            let ty = v.ty();
            if !ty.is_memref() || ty.element() != element {
                return None;
            }
            let dims: Vec<i64> = ty.shape().into_iter().collect::<Option<_>>()?;
            dims.try_into().ok()
        };
        // The filter and the output are collapsed: they need the identity
        // layout. The image is only read through a map.
        if !w.ty().has_identity_layout() || !y.ty().has_identity_layout() {
            return None;
        }
        Some(Conv {
            x,
            w,
            y,
            x_shape: shape(x)?,
            w_shape: shape(w)?,
            y_shape: shape(y)?,
            strides: pair(op, "strides")?,
            dilations: pair(op, "dilations")?,
        })
    }

    /// `F C KH KW OH OW`, saturating.
    fn flops_per_image(&self) -> u64 {
        let [f, c, kh, kw] = self.w_shape;
        let [_, _, oh, ow] = self.y_shape;
        [f, c, kh, kw, oh, ow]
            .iter()
            .try_fold(1u64, |n, &s| n.checked_mul(u64::try_from(s).ok()?))
            .unwrap_or(u64::MAX)
    }

    /// Whether the patches are the image itself: a 1x1 filter, stride 1,
    /// an image with the identity layout.
    fn pointwise(&self) -> bool {
        let [_, _, kh, kw] = self.w_shape;
        (kh, kw) == (1, 1) && self.strides == [1, 1] && self.x.ty().has_identity_layout()
    }
}

/// The two values of the attribute `name` of `op` (`dense<1>` or
/// `dense<[2, 1]>`), 1 and 1 when it is absent.
fn pair(op: Op, name: &str) -> Option<[i64; 2]> {
    let Some(attr) = op.attr(name) else {
        return Some([1, 1]);
    };
    let text = attr.to_string();
    let inner = text.strip_prefix("dense<")?.split('>').next()?;
    let values: Vec<i64> = inner
        .trim_matches(|c| c == '[' || c == ']')
        .split(',')
        .map(|v| v.trim().parse().ok())
        .collect::<Option<_>>()?;
    match values[..] {
        [v] => Some([v, v]),
        [a, b] => Some([a, b]),
        _ => None,
    }
}

/// Replaces `op` by the im2col copy and the product (see [`CONV_TO_GEMM`]).
fn rewrite(op: Op, conv: &Conv) {
    let mut b = Builder::before(op);
    let ctx = b.ctx;
    let element = conv.y.ty().element();
    let [n, c, _, _] = conv.x_shape;
    let [f, _, kh, kw] = conv.w_shape;
    let [_, _, oh, ow] = conv.y_shape;
    let (k, p) = (c * kh * kw, oh * ow);
    let memref = |shape: &[i64]| {
        let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
        ctx.ty(&format!("memref<{}x{element}>", dims.join("x")))
    };
    let collapse = |b: &mut Builder, v: Value, groups: &str, shape: &[i64]| {
        b.value(
            "memref.collapse_shape",
            &[v],
            memref(shape),
            &[("reassociation", ctx.attr(groups))],
        )
    };
    let (patches, col) = if conv.pointwise() {
        (
            collapse(&mut b, conv.x, "[[0], [1], [2, 3]]", &[n, c, p]),
            None,
        )
    } else {
        let col = b.alloc("memref.alloc", &[], memref(&[n, c, kh, kw, oh, ow]));
        let term = |out: &str, stride: i64, kernel: &str, dilation: i64| {
            let scaled = |d: &str, s: i64| {
                if s == 1 {
                    d.to_string()
                } else {
                    format!("{d} * {s}")
                }
            };
            format!("{} + {}", scaled(out, stride), scaled(kernel, dilation))
        };
        let dims = "(d0, d1, d2, d3, d4, d5)";
        let read = format!(
            "affine_map<{dims} -> (d0, d1, {}, {})>",
            term("d4", conv.strides[0], "d2", conv.dilations[0]),
            term("d5", conv.strides[1], "d3", conv.dilations[1]),
        );
        let write = format!("affine_map<{dims} -> {dims}>");
        let (_, block, yield_) =
            build_generic(&mut b, &[conv.x], &[col], &[read, write], &["parallel"; 6]);
        yield_.set_operands(&[block.args()[0]]);
        let patches = collapse(&mut b, col, "[[0], [1, 2, 3], [4, 5]]", &[n, k, p]);
        (patches, Some(col))
    };
    let filter = collapse(&mut b, conv.w, "[[0], [1, 2, 3]]", &[f, k]);
    let out = collapse(&mut b, conv.y, "[[0], [1], [2, 3]]", &[n, f, p]);
    let dims = "(d0, d1, d2, d3)";
    let maps = [
        format!("affine_map<{dims} -> (d1, d3)>"),
        format!("affine_map<{dims} -> (d0, d3, d2)>"),
        format!("affine_map<{dims} -> (d0, d1, d2)>"),
    ];
    let (_, block, yield_) = build_generic(
        &mut b,
        &[filter, patches],
        &[out],
        &maps,
        &["parallel", "parallel", "parallel", "reduction"],
    );
    let args = block.args();
    let mut body = Builder::before(yield_);
    let product = body.value("arith.mulf", &[args[0], args[1]], element, &[]);
    let sum = body.value("arith.addf", &[args[2], product], element, &[]);
    yield_.set_operands(&[sum]);
    if let Some(col) = col {
        b.create("memref.dealloc", &[col], &[], &[], &[], &[]);
    }
    op.erase();
}

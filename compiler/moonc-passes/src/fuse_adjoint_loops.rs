//! `--moon-fuse-adjoint-loops`: fuses a run of reverse-sweep loops over one
//! range of elements into one loop whose iterations are independent,
//! recomputing from neighbouring elements what the loops passed to each
//! other through memory.
//!
//! Reverse mode turns a primal loop that reads `y[i - 1]` into one that
//! adds to `ȳ[i - 1]`, and a step of a program such as RK4 (`k = f(y)`,
//! `t = y + h k`, ...) into as many loops as the step has, each streaming
//! its adjoints through memory to the next. The pass evaluates the run
//! symbolically: every buffer's contents after the run become an
//! expression of its contents before, at offsets from the element; one
//! loop then computes each element's final contents directly, in place.

use moonc_autodiff::{REVERSE_LOOP, ZERO_SHADOWS};
use moonc_ir::ir::{Block, Builder, Op, Region, Type, Value};
use moonc_ir::{
    Error,
    pass::{self, OptionValues, PassInfo, PassOption},
};
use std::collections::{HashMap, HashSet};

/// The registration of `--moon-fuse-adjoint-loops`.
pub static FUSE_ADJOINT_LOOPS: PassInfo = PassInfo {
    argument: "moon-fuse-adjoint-loops",
    summary: "Fuse runs of reverse-sweep loops over one range into one loop of independent iterations",
    description: r#"
Looks, in every block, for runs of two or more `scf.for` loops that reverse
mode made (marked `moon.reverse`), with only these between them: loads and
stores at constant indices and arithmetic. Each loop of a run must run over
the elements `[lo, n + c)` of one range (`lo` and `c` constants, `n` the
same value for every loop), have a body of loads, stores and `arith`/`math`
operations only, write only one-dimensional buffers, and touch only buffers
that cannot alias (allocations, or arguments of a function marked
`moon.distinct_args`). A buffer a loop writes it must access at a single
offset from the element (`%x[%i - 1]`), or only add into, once per offset
(`ȳ[i - 1] += a`, `ȳ[i] += b`: the reverse of a two-point stencil), each
element then receiving its additions in the loop's order.

The run is then evaluated symbolically: after it, each buffer it writes
holds, at element `e`, an expression of what the buffers held before it at
`e + c` for constant offsets `c` (a value a loop stored at `e - 1` and the
next loop read there becomes part of the expression, shifted). One loop,
ascending, computes every written buffer's final value at `e` and stores
it, in place. A buffer it writes and also reads behind `e` (at `c < 0`, an
element already overwritten) is read from a copy made before the loop.
Scalars the run accumulates into (`memref<f64>`) and elements written at
constant indices are computed before the loop and stored after it. The
elements near the range's ends, where some loop of the run has no
iteration, run in two short loops that test each contribution and each
load; the loop between them has no tests.

A value passed from one loop to the next through memory is thus recomputed
from its inputs wherever it is needed rather than stored and loaded. When
the loop whose body holds the run lists buffers in `moon.zero_shadows`
(reverse mode does, for the shadows of the temporaries a checkpointed
segment overwrites in every step: they are zero whenever a step's reverse
starts), the first run of the body takes them as zero: it never loads them,
stores them only where their final value is not zero, and takes `0 + v` on
one of their elements as `v` (a shadow's accumulation then keeps the sign
of a contribution of -0). On plain RK4 (GradBench's `ode`), a step's eight
reverse loops, about 60 streams through memory per element, become one loop
of 9 (the state's adjoint and the gradient, read and written, `x` and the
four tape rows). The run is left alone when the fused loop would compute
more than `max-growth` times the operations of the loops it replaces.

`moon-cpu-pipeline` runs it after linalg becomes loops. Before:

```mlir
scf.for %r = %c0 to %n step %c1 {        // k̄ = 2 ȳ
  ...
  memref.store %v, %kb[%i] : memref<?xf64>
} {moon.reverse}
scf.for %r = %c0 to %m step %c1 {        // from k[i] = x[i] * y[i - 1]
  ...
  %k = memref.load %kb[%i] : memref<?xf64>
  ...
  memref.store %s, %yb[%im1] : memref<?xf64>
} {moon.reverse}
```

After: one `scf.for` over the elements (and two short ones at the ends)
storing each buffer's final value, with `k̄[i + 1]` recomputed where
`ȳ[i]` needs it.
"#,
    op_name: "builtin.module",
    dependent_dialects: moonc_ir::dependent_dialects,
    options: &[PassOption {
        name: "max-growth",
        description: "the most operations the fused loop may compute per element, as a multiple of the loops it replaces (0 turns the pass off)",
        default: 3,
    }],
    run,
};

fn run(module: Op, options: OptionValues) -> Result<(), Error> {
    let growth = options.get("max-growth") as usize;
    if growth == 0 {
        return pass::unchanged();
    }
    let mut blocks = vec![];
    for op in module.walk() {
        if op.name() == "scf.for" && op.attr(REVERSE_LOOP).is_some() {
            let block = op.block();
            if !blocks.contains(&block) {
                blocks.push(block);
            }
        }
    }
    if blocks.is_empty() {
        return pass::unchanged();
    }
    for block in blocks {
        fuse_runs(block, growth);
    }
    Ok(())
}

/// Fuses each maximal run of fusable loops in `block`.
fn fuse_runs(block: Block, growth: usize) {
    // The first run sees the buffers known to be zero when an iteration
    // of the loop whose body this is starts.
    let mut run = Run {
        zero: zero_on_entry(block),
        ..Run::default()
    };
    for op in block.ops() {
        match run.add(op) {
            Added::Yes => {}
            Added::Outside => {
                run.finish(growth);
                run = Run::default();
            }
            Added::Refused => {
                run.finish(growth);
                run = Run::default();
                // The loop may start a run of its own.
                if run.add(op) != Added::Yes {
                    run = Run::default();
                }
            }
        }
    }
    run.finish(growth);
}

/// The buffers zero at the start of each iteration of the loop whose body
/// is `block`: the arguments of its function that reverse mode lists in
/// the loop's `moon.zero_shadows`.
pub(crate) fn zero_on_entry(block: Block) -> HashSet<Value> {
    let l = block.parent_op();
    let Some(positions) = l.attr(ZERO_SHADOWS) else {
        return HashSet::new();
    };
    let Some(function) = l.enclosing_function() else {
        return HashSet::new();
    };
    let args = function.regions()[0].entry().expect("a body").args();
    positions
        .int_array()
        .iter()
        .filter_map(|&p| args.get(p as usize).copied())
        .collect()
}

/// A position, relative to where an expression is evaluated (`e + s`) or
/// absolute (element `k`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Pos {
    Rel(i64),
    Abs(i64),
}

impl Pos {
    /// Where an operand at `inner` lies when its user is evaluated at `self`.
    fn then(self, inner: Pos) -> Pos {
        match (self, inner) {
            (_, Pos::Abs(k)) => Pos::Abs(k),
            (Pos::Rel(s), Pos::Rel(d)) => Pos::Rel(s + d),
            (Pos::Abs(k), Pos::Rel(d)) => Pos::Abs(k + d),
        }
    }
}

type NodeId = usize;
/// A node evaluated at a position relative to its user's.
type Ref = (NodeId, Pos);

/// The upper end of a range: a constant, or the run's common bound plus a
/// constant.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Hi {
    Const(i64),
    Bound(i64),
}

/// The elements `[lo, hi)`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct Range {
    lo: i64,
    hi: Hi,
}

impl Range {
    fn shifted(self, c: i64) -> Range {
        Range {
            lo: self.lo + c,
            hi: match self.hi {
                Hi::Const(k) => Hi::Const(k + c),
                Hi::Bound(d) => Hi::Bound(d + c),
            },
        }
    }
}

#[derive(Clone)]
enum Node {
    /// A buffer's contents before the run.
    Init(usize),
    /// A value defined before the run.
    Outside(Value),
    /// A clone of this pure operation (one result) on the operands.
    Apply(Op, Vec<Ref>),
    /// Whether the position lies in the range.
    InRange(Range),
    /// `cond ? then : else`, `cond` an [`Node::InRange`] at the same position.
    Select(NodeId, Ref, Ref),
}

/// A buffer the run accesses: a memref and the leading indices (all but
/// the last, for the buffers it only reads).
#[derive(Clone, PartialEq, Eq, Hash)]
struct Buf {
    memref: Value,
    prefix: Vec<Value>,
}

#[derive(Clone)]
struct BufInfo {
    buf: Buf,
    /// 0 (a scalar) or 1, for the buffers written.
    rank: usize,
    /// The contents now: at position p, the node at `p.then(state.1)`.
    state: Ref,
    /// The ranges the run accessed (so the program may access them).
    accessed: Vec<Range>,
    /// The ranges the run wrote.
    written: Vec<Range>,
    /// Whether the buffer holds zeros when the run starts.
    zero: bool,
}

#[derive(PartialEq, Eq)]
enum Added {
    Yes,
    /// Not part of a run (ends it).
    Outside,
    /// A reverse loop that cannot join this run.
    Refused,
}

/// A run of loops being evaluated symbolically.
#[derive(Clone, Default)]
struct Run {
    nodes: Vec<Node>,
    bufs: Vec<BufInfo>,
    buf_ids: HashMap<Buf, usize>,
    /// Results of the operations the run absorbs, as nodes (at `Abs(0)`).
    values: HashMap<Value, Ref>,
    outside: HashMap<Value, NodeId>,
    /// The operations the fused code replaces, in order.
    absorbed: Vec<Op>,
    loops: usize,
    /// The common upper bound of the loops' ranges.
    bound: Option<Value>,
    /// The operations in the bodies of the loops replaced.
    original_ops: usize,
    /// The memrefs that hold zeros when the run starts.
    zero: HashSet<Value>,
    /// The stores that add into a buffer at several offsets of a loop.
    accumulations: usize,
}

impl Run {
    fn node(&mut self, node: Node) -> NodeId {
        self.nodes.push(node);
        self.nodes.len() - 1
    }

    /// Adds `op`, the next operation of the block, to the run.
    fn add(&mut self, op: Op) -> Added {
        let name = op.name();
        if name == "scf.for" && op.attr(REVERSE_LOOP).is_some() {
            let mut trial = self.clone();
            return match trial.add_loop(op) {
                Some(()) => {
                    *self = trial;
                    Added::Yes
                }
                None => Added::Refused,
            };
        }
        if !op.regions().is_empty() {
            return Added::Outside;
        }
        let mut trial = self.clone();
        let added = match name.as_str() {
            "memref.load" | "memref.store" => trial.add_point(op),
            _ if is_pure(&name) => {
                if op.operands().iter().any(|v| self.values.contains_key(v)) {
                    trial.add_point(op)
                } else {
                    return Added::Yes; // index arithmetic and the like: kept
                }
            }
            "memref.dim" => return Added::Yes,
            _ => None,
        };
        match added {
            Some(()) => {
                *self = trial;
                Added::Yes
            }
            None => Added::Outside,
        }
    }

    /// The buffer of `memref` with the leading indices `prefix` (elements
    /// indexed by the last index), of `rank` 0 or more; `None` when the
    /// memref might alias another.
    fn buffer(&mut self, memref: Value, prefix: Vec<Value>, rank: usize) -> Option<usize> {
        if !distinct_root(memref) {
            return None;
        }
        let buf = Buf { memref, prefix };
        if let Some(&id) = self.buf_ids.get(&buf) {
            return Some(id);
        }
        let id = self.bufs.len();
        let init = self.node(Node::Init(id));
        let state = if rank == 0 {
            (init, Pos::Abs(0))
        } else {
            (init, Pos::Rel(0))
        };
        self.bufs.push(BufInfo {
            zero: buf.prefix.is_empty() && self.zero.contains(&memref),
            buf: buf.clone(),
            rank,
            state,
            accessed: vec![],
            written: vec![],
        });
        self.buf_ids.insert(buf, id);
        Some(id)
    }

    /// A load or store at constant indices, or arithmetic on what such
    /// loads gave.
    fn add_point(&mut self, op: Op) -> Option<()> {
        let name = op.name();
        let operands = op.operands();
        let (value, memref, indices) = match name.as_str() {
            "memref.load" => (None, operands[0], &operands[1..]),
            "memref.store" => (Some(operands[0]), operands[1], &operands[2..]),
            _ => {
                let args = operands
                    .iter()
                    .map(|&v| self.operand(v))
                    .collect::<Vec<_>>();
                if op.results().len() != 1 {
                    return None;
                }
                let id = self.node(Node::Apply(op, args));
                self.values.insert(op.result(0), (id, Pos::Abs(0)));
                self.absorbed.push(op);
                return Some(());
            }
        };
        if indices.len() > 1 {
            return None;
        }
        let k = match indices.first() {
            Some(i) => i.index_constant()?,
            None => 0,
        };
        let b = self.buffer(memref, vec![], indices.len())?;
        let range = Range {
            lo: k,
            hi: Hi::Const(k + 1),
        };
        self.bufs[b].accessed.push(range);
        let state = self.bufs[b].state;
        match value {
            None => {
                self.values
                    .insert(op.result(0), (state.0, Pos::Abs(k).then(state.1)));
            }
            Some(v) => {
                let v = self.operand(v);
                self.bufs[b].written.push(range);
                self.bufs[b].state = if indices.is_empty() {
                    v
                } else {
                    let cond = self.node(Node::InRange(range));
                    let select = self.node(Node::Select(cond, v, state));
                    (select, Pos::Rel(0))
                };
            }
        }
        self.absorbed.push(op);
        Some(())
    }

    /// A value used at the run's level: absorbed, or defined before.
    fn operand(&mut self, v: Value) -> Ref {
        if let Some(&r) = self.values.get(&v) {
            return r;
        }
        let id = match self.outside.get(&v) {
            Some(&id) => id,
            None => {
                let id = self.node(Node::Outside(v));
                self.outside.insert(v, id);
                id
            }
        };
        (id, Pos::Abs(0))
    }

    /// A reverse loop over the elements of a range.
    fn add_loop(&mut self, l: Op) -> Option<()> {
        let shape = LoopShape::of(l)?;
        match self.bound {
            Some(b) if b != shape.bound => return None,
            _ => self.bound = Some(shape.bound),
        }
        let body = l.regions()[0].entry()?;
        let range = Range {
            lo: shape.lo,
            hi: Hi::Bound(shape.hi_offset),
        };
        // Values of the body (relative to the loop's element), and what
        // each buffer element holds within the iteration.
        let mut values: HashMap<Value, Ref> = HashMap::new();
        let mut current: HashMap<(usize, i64), Ref> = HashMap::new();
        let mut offsets: HashMap<usize, HashSet<i64>> = HashMap::new();
        let mut written: Vec<(usize, i64)> = vec![];
        // Stores `b[e + c] = b[e + c] + w` of a value loaded right before
        // and used only there: (buffer, offset, the addition, w, whether
        // the loaded value is its first operand).
        let mut accumulations: Vec<(usize, i64, Op, Ref, bool)> = vec![];
        let mut loads: HashMap<usize, usize> = HashMap::new();
        let mut count = 0;
        for op in body.ops() {
            count += 1;
            let name = op.name();
            let operands = op.operands();
            match name.as_str() {
                "scf.yield" => {
                    if !operands.is_empty() {
                        return None;
                    }
                }
                "memref.load" | "memref.store" => {
                    let (memref, indices) = if name == "memref.load" {
                        (operands[0], &operands[1..])
                    } else {
                        (operands[1], &operands[2..])
                    };
                    let (b, c) = self.element(&shape, body, memref, indices)?;
                    offsets.entry(b).or_default().insert(c);
                    self.bufs[b].accessed.push(range.shifted(c));
                    let pos = if self.bufs[b].rank == 0 {
                        Pos::Abs(0)
                    } else {
                        Pos::Rel(c)
                    };
                    if name == "memref.load" {
                        *loads.entry(b).or_default() += 1;
                        let state = self.bufs[b].state;
                        let v = *current
                            .get(&(b, c))
                            .unwrap_or(&(state.0, pos.then(state.1)));
                        values.insert(op.result(0), v);
                    } else {
                        if self.bufs[b].rank != 1 {
                            return None; // a reduction into a scalar
                        }
                        let v = self.body_value(&values, body, operands[0])?;
                        if let Some(acc) = accumulation(op, &values) {
                            accumulations.push((b, c, acc.0, acc.1, acc.2));
                        }
                        current.insert((b, c), v);
                        if !written.contains(&(b, c)) {
                            written.push((b, c));
                        }
                    }
                }
                "memref.dim" => {}
                _ if is_pure(&name) && op.regions().is_empty() => {
                    let data = operands.iter().any(|v| values.contains_key(v))
                        || op
                            .results()
                            .iter()
                            .chain(&operands)
                            .any(|v| !is_integer_like(v.ty()));
                    if !data {
                        continue; // index arithmetic, read by `element`
                    }
                    if op.results().len() != 1 {
                        return None;
                    }
                    let args = operands
                        .iter()
                        .map(|&v| self.body_value(&values, body, v))
                        .collect::<Option<Vec<_>>>()?;
                    let id = self.node(Node::Apply(op, args));
                    values.insert(op.result(0), (id, Pos::Rel(0)));
                }
                _ => return None,
            }
        }
        // Each buffer the loop writes it accesses at one offset (its
        // iterations then touch distinct elements and commute), or only
        // accumulates into, once per offset: then each element receives
        // one addition per offset, from the iteration at `e - c`, the
        // smaller offsets first (the iterations run backwards).
        let mut accumulated: Vec<usize> = vec![];
        for &(b, _) in &written {
            if !self.bufs[b].buf.prefix.is_empty() {
                return None;
            }
            if offsets[&b].len() == 1 || accumulated.contains(&b) {
                continue;
            }
            let ours = accumulations.iter().filter(|a| a.0 == b).count();
            let stores = written.iter().filter(|w| w.0 == b).count();
            if ours != offsets[&b].len() || stores != ours || loads.get(&b) != Some(&ours) {
                return None;
            }
            accumulated.push(b);
        }
        accumulations.retain(|a| accumulated.contains(&a.0));
        self.accumulations += accumulations.len();
        accumulations.sort_by_key(|a| (a.0, a.1));
        for (b, c, add, w, loaded_first) in accumulations {
            let old = self.bufs[b].state;
            let w = (w.0, Pos::Rel(-c).then(w.1));
            let args = if loaded_first {
                vec![old, w]
            } else {
                vec![w, old]
            };
            let sum = self.node(Node::Apply(add, args));
            let cond = self.node(Node::InRange(range.shifted(c)));
            let select = self.node(Node::Select(cond, (sum, Pos::Rel(0)), old));
            self.bufs[b].state = (select, Pos::Rel(0));
            self.bufs[b].written.push(range.shifted(c));
        }
        written.retain(|w| !accumulated.contains(&w.0));
        for (b, c) in written {
            let v = current[&(b, c)];
            let shifted = (v.0, Pos::Rel(-c).then(v.1));
            let old = self.bufs[b].state;
            let cond = self.node(Node::InRange(range.shifted(c)));
            let select = self.node(Node::Select(cond, shifted, old));
            self.bufs[b].state = (select, Pos::Rel(0));
            self.bufs[b].written.push(range.shifted(c));
        }
        // A multi-dimensional buffer the run writes anywhere is refused
        // (its prefix would have to be compared).
        let written_memrefs: HashSet<Value> = self
            .bufs
            .iter()
            .filter(|i| !i.written.is_empty())
            .map(|i| i.buf.memref)
            .collect();
        if self
            .bufs
            .iter()
            .any(|i| !i.buf.prefix.is_empty() && written_memrefs.contains(&i.buf.memref))
        {
            return None;
        }
        self.absorbed.push(l);
        self.loops += 1;
        self.original_ops += count;
        Some(())
    }

    /// A value the loop body uses: defined in it, or before it.
    fn body_value(&mut self, values: &HashMap<Value, Ref>, body: Block, v: Value) -> Option<Ref> {
        if let Some(&r) = values.get(&v) {
            return Some(r);
        }
        if v.block().is_within(body) {
            return None; // index arithmetic used as data
        }
        Some(self.operand(v))
    }

    /// The buffer and the offset from the loop's element of `memref[indices]`.
    fn element(
        &mut self,
        shape: &LoopShape,
        body: Block,
        memref: Value,
        indices: &[Value],
    ) -> Option<(usize, i64)> {
        let Some((&last, prefix)) = indices.split_last() else {
            return Some((self.buffer(memref, vec![], 0)?, 0));
        };
        for &p in prefix {
            let inside = p.block().is_within(body) || self.values.contains_key(&p);
            if inside && p.index_constant().is_none() {
                return None;
            }
        }
        let offset = linear(last, shape.iv, body)?
            .minus(&shape.element)
            .constant()?;
        let b = self.buffer(memref, prefix.to_vec(), indices.len())?;
        Some((b, offset))
    }

    /// Replaces the run by fused code, if it has two loops or more and
    /// qualifies.
    fn finish(self, growth: usize) {
        if self.loops < 2 {
            return;
        }
        let Some(plan) = Plan::of(&self, growth) else {
            return;
        };
        let absorbed: HashSet<Op> = self.absorbed.iter().copied().collect();
        for op in &self.absorbed {
            for r in op.results() {
                if r.users()
                    .iter()
                    .any(|u| !absorbed.contains(&top_level(*u, op.block())))
                {
                    return;
                }
            }
        }
        emit(&self, &plan);
        tracing::debug!(
            loops = self.loops,
            zero = self.bufs.iter().filter(|b| b.zero).count(),
            accumulations = self.accumulations,
            interior = plan.interior.is_some(),
            "fused a run of reverse loops"
        );
        for op in self.absorbed.iter().rev() {
            op.erase();
        }
    }
}

impl Run {
    /// Whether the condition `cond` of a select holds in the interior loop:
    /// the range of a loop of the run does (the interior lies inside every
    /// such range, at every offset it is tested at), that of an element
    /// written at a constant index does not (the interior starts after it).
    fn holds_inside(&self, cond: NodeId) -> bool {
        matches!(
            self.nodes[cond],
            Node::InRange(Range {
                hi: Hi::Bound(_),
                ..
            })
        )
    }

    /// Whether `r` is an element of a buffer that holds zero at relative
    /// position `s` (so that `0 + v` may be taken as `v`: a shadow's
    /// accumulation then keeps the sign of a contribution of -0).
    fn is_zero_element(&self, r: Ref, s: i64, interior: bool) -> bool {
        matches!(self.nodes[r.0], Node::Init(_) | Node::Select(..)) && self.is_zero(r, s, interior)
    }

    /// Whether node `r` is zero at relative position `s`, as the interior
    /// loop (`interior`) or the others evaluate it.
    fn is_zero(&self, r: Ref, s: i64, interior: bool) -> bool {
        let (s, absolute) = match Pos::Rel(s).then(r.1) {
            Pos::Rel(s) => (s, false),
            Pos::Abs(_) => (0, true),
        };
        match &self.nodes[r.0] {
            Node::Select(..) if absolute => false,
            Node::Init(b) => self.bufs[*b].zero,
            Node::Apply(op, _) => is_zero_constant(*op),
            Node::Outside(v) => v.defining_op().is_some_and(is_zero_constant),
            Node::Select(cond, then, otherwise) => {
                if interior {
                    let holds = self.holds_inside(*cond);
                    self.is_zero(if holds { *then } else { *otherwise }, s, true)
                } else {
                    self.is_zero(*then, s, false) && self.is_zero(*otherwise, s, false)
                }
            }
            Node::InRange(_) => false,
        }
    }
}

/// Whether `op` is the float constant +0.0.
pub(crate) fn is_zero_constant(op: Op) -> bool {
    op.name() == "arith.constant"
        && op.result(0).ty().is_float()
        && op
            .attr("value")
            .is_some_and(|a| a.to_string().starts_with("0.000000e+00"))
}

/// For a store `b[i] = b[i] + w` (or `w + b[i]`) of a sum used only
/// there, of a load of `b[i]` (the same indices) used only there: the
/// addition, `w` and whether the loaded value comes first.
fn accumulation(store: Op, values: &HashMap<Value, Ref>) -> Option<(Op, Ref, bool)> {
    let add = store.operand(0).defining_op()?;
    if add.name() != "arith.addf" || add.result(0).users().len() != 1 {
        return None;
    }
    for (loaded, other) in [(0, 1), (1, 0)] {
        let Some(load) = add.operand(loaded).defining_op() else {
            continue;
        };
        let same = load.name() == "memref.load"
            && load.block() == store.block()
            && load.operands() == store.operands()[1..]
            && load.result(0).users().len() == 1;
        if same {
            let w = *values.get(&add.operand(other))?;
            return Some((add, w, loaded == 0));
        }
    }
    None
}

/// The ancestor of `op` in `block` (or `op`).
fn top_level(op: Op, block: Block) -> Op {
    let mut op = op;
    while op.block() != block {
        match op.parent() {
            Some(p) => op = p,
            None => return op,
        }
    }
    op
}

/// Operations without side effects the pass may clone.
fn is_pure(name: &str) -> bool {
    name.starts_with("arith.") || name.starts_with("math.")
}

fn is_integer_like(ty: Type) -> bool {
    ty.is_index() || ty.is_integer()
}

/// Whether `memref` aliases no other buffer the run may use: an allocation,
/// or an argument of a function whose memref arguments are distinct.
fn distinct_root(memref: Value) -> bool {
    match memref.defining_op() {
        Some(op) => matches!(op.name().as_str(), "memref.alloc" | "memref.alloca"),
        None => {
            let owner = memref.block().parent_op();
            owner.name() == "func.func"
                && owner.attr(moonc_autodiff::DISTINCT_ARGS).is_some()
                && memref.block() == owner.regions()[0].entry().expect("a body")
        }
    }
}

/// A reverse loop `scf.for %r = 0 to %n step 1` with `%n` the trip count
/// `ceildiv(max(hi - lo, 0), 1)` of a loop over `[lo, hi)`, `lo` constant:
/// iteration `%r` is element `lo + %n - 1 - %r` (the body computes the
/// indices it uses from that).
struct LoopShape {
    iv: Value,
    lo: i64,
    /// `hi` is `bound + hi_offset`.
    bound: Value,
    hi_offset: i64,
    element: Linear,
}

impl LoopShape {
    fn of(l: Op) -> Option<LoopShape> {
        let operands = l.operands();
        if operands.len() != 3 || operands[0].index_constant()? != 0 {
            return None;
        }
        if operands[2].index_constant()? != 1 || !l.results().is_empty() {
            return None;
        }
        let n = operands[1];
        // `ceildiv(max(hi - lo, 0), 1)`, or what canonicalization leaves
        // of it (no division, no subtraction of 0).
        let mut span = n;
        if let Some(ceil) = span.defining_op().filter(|o| o.name() == "arith.ceildivsi") {
            if ceil.operand(1).index_constant()? != 1 {
                return None;
            }
            span = ceil.operand(0);
        }
        let max = span.defining_op().filter(|o| o.name() == "arith.maxsi")?;
        if max.operand(1).index_constant()? != 0 {
            return None;
        }
        let (bound, lo) = match max.operand(0).defining_op() {
            Some(sub) if sub.name() == "arith.subi" => {
                (sub.operand(0), sub.operand(1).index_constant()?)
            }
            _ => (max.operand(0), 0),
        };
        // `hi` as a value plus a constant (`n - 1` is `n` and -1), so that
        // loops over `[1, n - 1)` and `[0, n)` share their bound.
        let (mut bound, mut hi_offset) = (bound, 0);
        while let Some(op) = bound.defining_op() {
            let name = op.name();
            if name != "arith.subi" && name != "arith.addi" {
                break;
            }
            match (name.as_str(), op.operand(1).index_constant()) {
                ("arith.subi", Some(k)) => hi_offset -= k,
                ("arith.addi", Some(k)) => hi_offset += k,
                _ => break,
            }
            bound = op.operand(0);
        }
        let body = l.regions()[0].entry()?;
        let iv = body.args()[0];
        let mut element = Linear::atom(n, 1);
        element.add(&Linear::atom(iv, -1), 1);
        element.c = lo - 1;
        Some(LoopShape {
            iv,
            lo,
            bound,
            hi_offset,
            element,
        })
    }
}

/// An integer combination of values plus a constant.
#[derive(Clone, Default)]
pub(crate) struct Linear {
    terms: HashMap<Value, i64>,
    c: i64,
}

impl Linear {
    fn atom(v: Value, k: i64) -> Linear {
        Linear {
            terms: HashMap::from([(v, k)]),
            c: 0,
        }
    }

    fn add(&mut self, other: &Linear, k: i64) {
        for (&v, &a) in &other.terms {
            *self.terms.entry(v).or_default() += k * a;
        }
        self.c += k * other.c;
    }

    fn minus(mut self, other: &Linear) -> Linear {
        self.add(other, -1);
        self
    }

    fn constant(&self) -> Option<i64> {
        self.terms.values().all(|&a| a == 0).then_some(self.c)
    }

    /// The multiple of `v` in the combination.
    pub(crate) fn coefficient(&self, v: Value) -> i64 {
        self.terms.get(&v).copied().unwrap_or(0)
    }

    /// The values combined (with a nonzero multiple).
    pub(crate) fn atoms(&self) -> impl Iterator<Item = Value> + '_ {
        self.terms.iter().filter(|(_, a)| **a != 0).map(|(v, _)| *v)
    }
}

/// `v` as a combination of the induction variable `iv` and values defined
/// outside `body`, through `addi`, `subi`, `muli` and division by 1.
pub(crate) fn linear(v: Value, iv: Value, body: Block) -> Option<Linear> {
    if let Some(c) = v.index_constant() {
        return Some(Linear {
            terms: HashMap::new(),
            c,
        });
    }
    if v == iv || !v.block().is_within(body) {
        return Some(Linear::atom(v, 1));
    }
    let op = v.defining_op()?;
    let (a, b) = (
        op.operands().first().copied()?,
        op.operands().get(1).copied()?,
    );
    match op.name().as_str() {
        "arith.addi" | "arith.subi" => {
            let mut l = linear(a, iv, body)?;
            let sign = if op.name() == "arith.addi" { 1 } else { -1 };
            l.add(&linear(b, iv, body)?, sign);
            Some(l)
        }
        "arith.muli" => {
            let (x, k) = match (a.index_constant(), b.index_constant()) {
                (_, Some(k)) => (a, k),
                (Some(k), _) => (b, k),
                _ => return None,
            };
            let mut l = Linear::default();
            l.add(&linear(x, iv, body)?, k);
            Some(l)
        }
        "arith.divui" | "arith.divsi" if b.index_constant() == Some(1) => linear(a, iv, body),
        _ => None,
    }
}

/// How the fused code is laid out.
struct Plan {
    /// The range of elements the fused loops cover: `[lo, bound + hi)`.
    lo: i64,
    hi: i64,
    /// The elements `[a, bound + d)` need no tests (all the loops'
    /// contributions apply, every load is in bounds); `None`: none known.
    interior: Option<(i64, i64)>,
    /// The one-dimensional buffers written, and the scalars and elements
    /// written at constant indices.
    written: Vec<usize>,
    points: Vec<(usize, i64)>,
    /// The written buffers the loops read from a copy.
    snapshots: Vec<usize>,
}

impl Plan {
    fn of(run: &Run, growth: usize) -> Option<Plan> {
        // One-dimensional buffers the loops write (those written only at
        // constant indices are stored after the loops).
        let written: Vec<usize> = (0..run.bufs.len())
            .filter(|&b| {
                run.bufs[b].rank == 1
                    && run.bufs[b]
                        .written
                        .iter()
                        .any(|r| matches!(r.hi, Hi::Bound(_)))
            })
            .collect();
        let mut points = vec![];
        for (b, info) in run.bufs.iter().enumerate() {
            for r in &info.written {
                if let Hi::Const(_) = r.hi {
                    points.push((b, r.lo));
                }
            }
            if info.rank == 0 && !info.written.is_empty() {
                points.push((b, 0));
            }
        }
        points.sort();
        points.dedup();
        let loop_ranges: Vec<Range> = written
            .iter()
            .flat_map(|&b| run.bufs[b].written.iter().copied())
            .filter(|r| matches!(r.hi, Hi::Bound(_)))
            .collect();
        let lo = loop_ranges.iter().map(|r| r.lo).min()?;
        let hi = loop_ranges
            .iter()
            .map(|r| match r.hi {
                Hi::Bound(d) => d,
                Hi::Const(_) => unreachable!("filtered"),
            })
            .max()?;
        // The loop ascends, in place: a buffer it writes and reads behind
        // the element being computed (at a negative offset, an element
        // already overwritten) is read from a copy of it made before.
        let mut walk = Walk::new(run, false);
        for &b in &written {
            walk.visit(run.bufs[b].state, Pos::Rel(0));
        }
        let snapshots: Vec<usize> = written
            .iter()
            .copied()
            .filter(|&b| walk.loads.iter().any(|&(l, t)| l == b && t < 0))
            .collect();
        let mut interior = Walk::new(run, true);
        for &b in &written {
            interior.cover(&run.bufs[b].written, 0);
            interior.visit(run.bufs[b].state, Pos::Rel(0));
        }
        if interior.seen.len() > growth * run.original_ops {
            return None;
        }
        let interior = interior
            .feasible
            .then_some((interior.a.max(lo), interior.d.min(hi)));
        Some(Plan {
            lo,
            hi,
            interior,
            written,
            points,
            snapshots,
        })
    }
}

/// A traversal of the expressions at relative positions, as the general
/// loop (`interior` false: every branch) or the interior loop (ranges of
/// loops taken as holding, of points as not) evaluates them.
struct Walk<'a> {
    run: &'a Run,
    interior: bool,
    seen: HashSet<(NodeId, i64)>,
    /// The buffers loaded, at relative offsets.
    loads: HashSet<(usize, i64)>,
    /// The interior `[a, bound + d)` the tests and loads allow.
    a: i64,
    d: i64,
    feasible: bool,
}

impl<'a> Walk<'a> {
    fn new(run: &'a Run, interior: bool) -> Walk<'a> {
        Walk {
            run,
            interior,
            seen: HashSet::new(),
            loads: HashSet::new(),
            a: i64::MIN,
            d: i64::MAX,
            feasible: true,
        }
    }

    /// Requires `e + t` to lie in one of `ranges` for every interior `e`.
    fn cover(&mut self, ranges: &[Range], t: i64) {
        let best = ranges
            .iter()
            .filter_map(|r| match r.hi {
                Hi::Bound(d) => Some((d, r.lo)),
                Hi::Const(_) => None,
            })
            .max_by_key(|&(d, lo)| (d, -lo));
        match best {
            Some((d, lo)) => {
                self.a = self.a.max(lo - t);
                self.d = self.d.min(d - t);
            }
            None => self.feasible = false,
        }
    }

    fn visit(&mut self, r: Ref, at: Pos) {
        let Pos::Rel(s) = at.then(r.1) else {
            return; // computed before the loop
        };
        if !self.seen.insert((r.0, s)) {
            return;
        }
        let run = self.run;
        match &run.nodes[r.0] {
            Node::Init(b) if run.bufs[*b].zero => {}
            Node::Init(b) => {
                self.loads.insert((*b, s));
                if self.interior {
                    self.cover(&run.bufs[*b].accessed, s);
                }
            }
            Node::Outside(_) => {}
            Node::Apply(_, args) => {
                for &a in args {
                    self.visit(a, Pos::Rel(s));
                }
            }
            Node::InRange(range) => {
                if self.interior {
                    match range.hi {
                        Hi::Bound(d) => {
                            self.a = self.a.max(range.lo - s);
                            self.d = self.d.min(d - s);
                        }
                        Hi::Const(k) => self.a = self.a.max(k - s),
                    }
                }
            }
            Node::Select(cond, then, otherwise) => {
                if self.interior {
                    self.visit((*cond, Pos::Rel(0)), Pos::Rel(s));
                    let holds = run.holds_inside(*cond);
                    self.visit(if holds { *then } else { *otherwise }, Pos::Rel(s));
                } else {
                    self.visit(*then, Pos::Rel(s));
                    self.visit(*otherwise, Pos::Rel(s));
                }
            }
        }
    }
}

/// Emits code for the run's nodes: values at absolute positions before the
/// loops (`pre`), at relative ones in a loop body.
struct Emitter<'a> {
    run: &'a Run,
    bound: Value,
    pre: Builder,
    pre_memo: HashMap<(NodeId, i64), Value>,
    /// The copies buffers are read from (see [`Plan::snapshots`]).
    copies: HashMap<usize, Value>,
}

/// One loop body being emitted.
struct Body {
    b: Builder,
    e: Value,
    interior: bool,
    memo: HashMap<(NodeId, i64), Value>,
    indices: HashMap<i64, Value>,
}

impl Emitter<'_> {
    /// The value of node `r` at `at` (in `body` if relative).
    fn eval(&mut self, body: &mut Body, r: Ref, at: Pos) -> Value {
        match at.then(r.1) {
            Pos::Abs(k) => self.eval_abs(r.0, k),
            Pos::Rel(s) => self.eval_rel(body, r.0, s),
        }
    }

    fn eval_abs(&mut self, n: NodeId, k: i64) -> Value {
        if let Some(&v) = self.pre_memo.get(&(n, k)) {
            return v;
        }
        let mut b = self.pre;
        let index = b.index(k);
        let v = match self.run.nodes[n].clone() {
            Node::Init(buf) => self.load(&mut b, buf, index, true),
            Node::Outside(v) => v,
            Node::Apply(op, args) => {
                let args: Vec<Value> = args
                    .iter()
                    .map(|&a| self.eval_pos(a, Pos::Abs(k)))
                    .collect();
                clone_with(&mut self.pre, op, &args)
            }
            Node::InRange(range) => in_range(&mut b, self.bound, range, index),
            Node::Select(cond, then, otherwise) => {
                let c = self.eval_abs(cond, k);
                let t = self.eval_pos(then, Pos::Abs(k));
                let o = self.eval_pos(otherwise, Pos::Abs(k));
                b.value("arith.select", &[c, t, o], t.ty(), &[])
            }
        };
        self.pre_memo.insert((n, k), v);
        v
    }

    /// The value of node `r` at the absolute position `at`.
    fn eval_pos(&mut self, r: Ref, at: Pos) -> Value {
        match at.then(r.1) {
            Pos::Abs(j) => self.eval_abs(r.0, j),
            Pos::Rel(_) => unreachable!("absolute positions stay absolute"),
        }
    }

    fn eval_rel(&mut self, body: &mut Body, n: NodeId, s: i64) -> Value {
        if let Some(&v) = body.memo.get(&(n, s)) {
            return v;
        }
        let v = match self.run.nodes[n].clone() {
            Node::Init(buf) => {
                let index = body.index(s);
                let mut b = body.b;
                let v = self.load(&mut b, buf, index, !body.interior);
                body.b = b;
                v
            }
            Node::Outside(v) => v,
            Node::Apply(op, args) => {
                // Adding to an element of a buffer that is zero there (a
                // shadow nothing has reached yet) gives the addend.
                if op.name() == "arith.addf" {
                    for (z, other) in [(0, 1), (1, 0)] {
                        if self.run.is_zero_element(args[z], s, body.interior) {
                            let v = self.eval(body, args[other], Pos::Rel(s));
                            body.memo.insert((n, s), v);
                            return v;
                        }
                    }
                }
                let args: Vec<Value> = args
                    .iter()
                    .map(|&a| self.eval(body, a, Pos::Rel(s)))
                    .collect();
                clone_with(&mut body.b, op, &args)
            }
            Node::InRange(range) => {
                let index = body.index(s);
                in_range(&mut body.b, self.bound, range, index)
            }
            Node::Select(cond, then, otherwise) => {
                if body.interior {
                    let holds = self.run.holds_inside(cond);
                    self.eval(body, if holds { then } else { otherwise }, Pos::Rel(s))
                } else {
                    let c = self.eval_rel(body, cond, s);
                    let t = self.eval(body, then, Pos::Rel(s));
                    let o = self.eval(body, otherwise, Pos::Rel(s));
                    body.b.value("arith.select", &[c, t, o], t.ty(), &[])
                }
            }
        };
        body.memo.insert((n, s), v);
        v
    }

    /// Loads buffer `buf` at `index`; `guarded`: only where the run
    /// accessed it (elsewhere zero, a value no result selects).
    fn load(&mut self, b: &mut Builder, buf: usize, index: Value, guarded: bool) -> Value {
        let info = &self.run.bufs[buf];
        let ty = info.buf.memref.ty().element();
        if info.zero {
            return zero(b, ty);
        }
        let mut indices = vec![];
        for &p in &info.buf.prefix {
            indices.push(match p.index_constant() {
                Some(k) => b.index(k),
                None => p,
            });
        }
        if info.rank > 0 {
            indices.push(index);
        }
        let memref = self.copies.get(&buf).copied().unwrap_or(info.buf.memref);
        let mut operands = vec![memref];
        operands.extend(&indices);
        if !guarded || info.rank == 0 {
            return b.value("memref.load", &operands, ty, &[]);
        }
        let inside = any_in_range(b, self.bound, &info.accessed, index);
        let (branch, then_block, else_block) = b.if_else(inside, &[ty]);
        let mut t = Builder::at_end(then_block, b.loc);
        let v = t.value("memref.load", &operands, ty, &[]);
        t.create("scf.yield", &[v], &[], &[], &[], &[]);
        let mut o = Builder::at_end(else_block, b.loc);
        let zero = zero(&mut o, ty);
        o.create("scf.yield", &[zero], &[], &[], &[], &[]);
        branch.result(0)
    }
}

impl Body {
    /// `e + s`.
    fn index(&mut self, s: i64) -> Value {
        if s == 0 {
            return self.e;
        }
        if let Some(&v) = self.indices.get(&s) {
            return v;
        }
        let k = self.b.index(s);
        let index = self.b.ctx.index();
        let v = self.b.value("arith.addi", &[self.e, k], index, &[]);
        self.indices.insert(s, v);
        v
    }
}

/// A clone of the one-result operation `op` on `args`.
fn clone_with(b: &mut Builder, op: Op, args: &[Value]) -> Value {
    let clone = b.insert(op.clone_detached());
    clone.set_operands(args);
    clone.result(0)
}

fn zero(b: &mut Builder, ty: Type) -> Value {
    if ty.is_float() {
        b.float(ty, 0.0)
    } else {
        let attr = b.ctx.attr(&format!("0 : {ty}"));
        b.value("arith.constant", &[], ty, &[("value", attr)])
    }
}

/// The end of a range as a value.
fn upper(b: &mut Builder, bound: Value, hi: Hi) -> Value {
    match hi {
        Hi::Const(k) => b.index(k),
        Hi::Bound(0) => bound,
        Hi::Bound(d) => {
            let d = b.index(d);
            let index = b.ctx.index();
            b.value("arith.addi", &[bound, d], index, &[])
        }
    }
}

fn cmp(b: &mut Builder, predicate: &str, x: Value, y: Value) -> Value {
    let p = b.ctx.attr(predicate);
    let i1 = b.ctx.ty("i1");
    b.value("arith.cmpi", &[x, y], i1, &[("predicate", p)])
}

/// `lo <= index < hi`.
fn in_range(b: &mut Builder, bound: Value, range: Range, index: Value) -> Value {
    let lo = b.index(range.lo);
    let hi = upper(b, bound, range.hi);
    let above = cmp(b, "5 : i64", index, lo); // sge
    let below = cmp(b, "2 : i64", index, hi); // slt
    let i1 = b.ctx.ty("i1");
    b.value("arith.andi", &[above, below], i1, &[])
}

fn any_in_range(b: &mut Builder, bound: Value, ranges: &[Range], index: Value) -> Value {
    let mut unique: Vec<Range> = vec![];
    for r in ranges {
        if !unique.contains(r) {
            unique.push(*r);
        }
    }
    let i1 = b.ctx.ty("i1");
    let mut any = in_range(b, bound, unique[0], index);
    for &r in &unique[1..] {
        let next = in_range(b, bound, r, index);
        any = b.value("arith.ori", &[any, next], i1, &[]);
    }
    any
}

/// Replaces the run by the plan's loops, after its last operation.
fn emit(run: &Run, plan: &Plan) {
    let last = *run.absorbed.last().expect("a run has operations");
    let bound = run.bound.expect("a run has loops");
    let mut b = Builder::after(last);
    let index = b.ctx.index();
    let lo = b.index(plan.lo);
    let hi = upper(&mut b, bound, Hi::Bound(plan.hi));
    // [lo, p1) tested, [p1, i1) interior, [i1, hi) tested.
    let (p1, i1) = match plan.interior {
        Some((a, d)) => {
            let a = b.index(a.max(plan.lo));
            let p1 = b.value("arith.minsi", &[a, hi], index, &[]);
            let end = upper(&mut b, bound, Hi::Bound(d));
            let end = b.value("arith.minsi", &[end, hi], index, &[]);
            let i1 = b.value("arith.maxsi", &[p1, end], index, &[]);
            (p1, i1)
        }
        None => (hi, hi),
    };
    let mut copies = HashMap::new();
    for &w in &plan.snapshots {
        copies.insert(w, b.copy_of(run.bufs[w].buf.memref));
    }
    let head = for_loop(&mut b, lo, p1);
    let middle = for_loop(&mut b, p1, i1);
    let tail = for_loop(&mut b, i1, hi);
    let mut post = b;
    let mut emitter = Emitter {
        run,
        bound,
        pre: Builder::before(head.0),
        pre_memo: HashMap::new(),
        copies,
    };
    for (l, interior) in [(head, false), (middle, true), (tail, false)] {
        let mut body = Body {
            b: l.1,
            e: l.2,
            interior,
            memo: HashMap::new(),
            indices: HashMap::new(),
        };
        // A buffer zero before the run whose final contents are zero here
        // is left alone.
        let finals: Vec<Option<Value>> = plan
            .written
            .iter()
            .map(|&w| {
                let state = run.bufs[w].state;
                let unchanged = run.bufs[w].zero && run.is_zero(state, 0, interior);
                (!unchanged).then(|| emitter.eval(&mut body, state, Pos::Rel(0)))
            })
            .collect();
        for (&w, &v) in plan.written.iter().zip(&finals) {
            let Some(v) = v else {
                continue; // zero, as it was
            };
            let memref = run.bufs[w].buf.memref;
            if interior {
                body.b
                    .create("memref.store", &[v, memref, body.e], &[], &[], &[], &[]);
            } else {
                let inside = any_in_range(&mut body.b, bound, &run.bufs[w].written, body.e);
                let (_, then_block, else_block) = body.b.if_else(inside, &[]);
                let mut t = Builder::at_end(then_block, body.b.loc);
                t.create("memref.store", &[v, memref, body.e], &[], &[], &[], &[]);
                t.create("scf.yield", &[], &[], &[], &[], &[]);
                Builder::at_end(else_block, body.b.loc).create(
                    "scf.yield",
                    &[],
                    &[],
                    &[],
                    &[],
                    &[],
                );
            }
        }
    }
    for w in &plan.snapshots {
        post.create("memref.dealloc", &[emitter.copies[w]], &[], &[], &[], &[]);
    }
    for &(w, k) in &plan.points {
        let info = &run.bufs[w];
        let v = emitter.eval_pos(info.state, Pos::Abs(k));
        let mut operands = vec![v, info.buf.memref];
        if info.rank == 1 {
            operands.push(post.index(k));
        }
        post.create("memref.store", &operands, &[], &[], &[], &[]);
    }
}

/// `scf.for %e = lo to hi step 1` after the builder's point: the loop, a
/// builder for its body and `%e`.
fn for_loop(b: &mut Builder, lo: Value, hi: Value) -> (Op, Builder, Value) {
    let index = b.ctx.index();
    let (region, block) = Region::with_block(&[index], b.loc);
    let one = b.index(1);
    let l = b.create("scf.for", &[lo, hi, one], &[], &[], &[region], &[]);
    region.destroy();
    let yield_ = Builder::at_end(block, b.loc).create("scf.yield", &[], &[], &[], &[], &[]);
    (l, Builder::before(yield_), block.args()[0])
}

//! The reverse sweep: each operation's adjoint code by its rule, blocks and
//! nested regions in reverse, with a scope per block.

use crate::{
    adjoint::{ReverseState, Scope, primal_uses},
    expr::{self, Env, Term},
    rules::{self, Reverse},
};
use moonc_ir::{
    Error,
    ir::{Block, Builder, Op, Value, error_at},
};
use std::collections::HashSet;

impl ReverseState<'_> {
    /// Emits the reverse of `block` at `at`, seeding the adjoints in
    /// `seeds`, and returns the adjoints of `wanted` (values of the block,
    /// usually its arguments) at the end of it; `None` for zero.
    pub fn reverse_nested(
        &mut self,
        block: Block,
        at: Builder,
        seeds: &[(Value, Value)],
        wanted: &[Value],
    ) -> Result<Vec<Option<Value>>, Error> {
        let saved = (self.b, self.current);
        self.b = at;
        self.open_scope(block);
        self.current = block;
        for &(value, seed) in seeds {
            self.add_adjoint(value, seed);
        }
        let ops = block.ops();
        for &op in ops.iter().rev().skip(1) {
            self.reverse_op(op)?;
        }
        let adjoints = wanted.iter().map(|&v| self.take_adjoint(v)).collect();
        (self.b, self.current) = saved;
        Ok(adjoints)
    }

    /// Creates the prologue markers of the reverse of `block` at `self.b`.
    pub(crate) fn open_scope(&mut self, block: Block) {
        let pop_end = self.b.index(0).defining_op().expect("a constant");
        let prologue_end = self.b.index(0).defining_op().expect("a constant");
        self.scopes.insert(
            block,
            Scope {
                pops: vec![],
                pop_end,
                prologue_end,
            },
        );
    }

    /// Emits the reverse of one operation.
    pub(crate) fn reverse_op(&mut self, op: Op) -> Result<(), Error> {
        let name = op.name();
        let rule = rules::lookup(&name);
        if let Some(Reverse::Custom(reverse)) = rule.map(|r| r.reverse) {
            return reverse(self, op);
        }
        if !self.touches_active(op) {
            return Ok(());
        }
        let rule = rules::or_missing(rule, op)?;
        match (rule.reverse, rule.forward) {
            (Reverse::Transpose, rules::Forward::Expr(text)) => self.transpose(op, text),
            (Reverse::Transpose, _) => unreachable!("only element rules transpose"),
            (Reverse::Nothing, _) => Ok(()),
            (Reverse::Custom(_), _) => unreachable!("handled above"),
        }
    }

    /// The reverse of an element operation: its forward rule, transposed.
    pub(crate) fn transpose(&mut self, op: Op, text: &str) -> Result<(), Error> {
        let result = op.result(0);
        if result.ty().is_memref() {
            return Err(error_at(
                op,
                &format!(
                    "`{}` of active buffers cannot be differentiated yet",
                    op.name()
                ),
            ));
        }
        let Some(adjoint) = self.take_adjoint(result) else {
            return Ok(());
        };
        let rule = expr::parse(text);
        // The primal values the active operands' terms read (the terms of
        // operands without adjoints are not built).
        let mut used = HashSet::new();
        for (i, &operand) in op.operands().iter().enumerate() {
            if self.has_adjoint(operand) {
                primal_uses(&rule, i, &mut used);
            }
        }
        let mut operands = op.operands();
        for (i, v) in operands.iter_mut().enumerate() {
            if used.contains(&Some(i)) {
                *v = self.get(*v)?;
            }
        }
        let primal_result = if used.contains(&None) {
            self.get(result)?
        } else {
            result
        };
        let name = op.name();
        for (i, &operand) in op.operands().iter().enumerate() {
            if !self.has_adjoint(operand) {
                continue;
            }
            let mut tangents = vec![None; operands.len()];
            tangents[i] = Some(adjoint);
            let env = Env {
                op_name: &name,
                operands: &operands,
                tangents: &tangents,
                result: primal_result,
                tangent_type: result.ty(),
                width: 1,
            };
            let mut b = self.b;
            match env.eval(&mut b, &rule) {
                Term::Zero => {}
                term => {
                    let contribution = env.tangent_value(&mut b, term);
                    self.b = b;
                    self.add_adjoint(operand, contribution);
                }
            }
        }
        Ok(())
    }

    /// Reverses the function's block: seeds the returned values, reverses
    /// every operation, and returns the adjoints of the arguments (zero
    /// where none flowed) in argument order, for those that have one.
    pub(crate) fn reverse_nested_top(
        &mut self,
        body: Block,
        seeds: &[(Value, Value)],
    ) -> Result<Vec<Value>, Error> {
        let args = body.args();
        let at = self.b;
        let adjoints = self.reverse_nested(body, at, seeds, &args)?;
        Ok(args
            .iter()
            .zip(adjoints)
            .map(|(a, adj)| match adj {
                Some(v) => v,
                None if a.ty().is_differentiable() => self.b.float(a.ty(), 0.0),
                None => *a,
            })
            .collect())
    }
}

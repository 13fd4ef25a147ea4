//! The little language derivative rules are written in, so that a rule is
//! one line of data: `dx0 * cos(x0)` for `math.sin`.
//!
//! Names: `x0`, `x1`, … are the operation's operands, `y` its (first)
//! result, `dx0`, `dx1`, … the operands' tangents. Numbers are constants
//! of the result's type. `+ - * /` and unary `-` are arith operations;
//! `f(a, …)` is `math.f` except for these built-ins:
//!
//! | call            | meaning                                        |
//! |-----------------|------------------------------------------------|
//! | `select(c,a,b)` | `arith.select`                                 |
//! | `lt gt le ge`   | ordered `arith.cmpf` comparisons               |
//! | `min max`       | `arith.minimumf` / `arith.maximumf`            |
//! | `pow(a,b)`      | `math.powf`                                    |
//! | `same(a)`       | the differentiated operation itself, applied to `a` (casts) |
//! | `itof(n)`       | an integer operand converted to the result's float type |
//! | `dec(n)`        | an integer operand minus one                    |
//!
//! Evaluation tracks symbolic zeros (the tangent of an inactive operand):
//! `0 * a` and `0 + a` build nothing, so inactive operands cost nothing.

use moonc_ir::ir::{Builder, Op, Type, Value};

/// A parsed rule expression.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    Number(f64),
    /// `xN`: operand N.
    Operand(usize),
    /// `dxN`: the tangent of operand N.
    Tangent(usize),
    /// `y`: the result.
    Result,
    Neg(Box<Expr>),
    Binary(char, Box<Expr>, Box<Expr>),
    Call(String, Vec<Expr>),
}

/// Parses a rule; panics with the rule text on a syntax error (rules are
/// compiled-in data, checked by the tables' unit tests).
pub fn parse(text: &str) -> Expr {
    let tokens = tokenize(text);
    let mut parser = Parser { tokens, at: 0 };
    let expr = parser.sum();
    assert!(
        parser.at == parser.tokens.len(),
        "rule `{text}`: unexpected `{}`",
        parser.tokens[parser.at]
    );
    expr
}

fn tokenize(text: &str) -> Vec<String> {
    let mut tokens = vec![];
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c.is_alphanumeric() || c == '.' || c == '_' {
            let start = i;
            while i < chars.len()
                && (chars[i].is_alphanumeric() || chars[i] == '.' || chars[i] == '_')
            {
                // Exponents: `1e-3`.
                if (chars[i] == 'e' || chars[i] == 'E')
                    && chars[start].is_ascii_digit()
                    && i + 1 < chars.len()
                    && chars[i + 1] == '-'
                {
                    i += 1;
                }
                i += 1;
            }
            tokens.push(chars[start..i].iter().collect());
        } else {
            tokens.push(c.to_string());
            i += 1;
        }
    }
    tokens
}

struct Parser {
    tokens: Vec<String>,
    at: usize,
}

impl Parser {
    fn peek(&self) -> Option<&str> {
        self.tokens.get(self.at).map(String::as_str)
    }

    fn next(&mut self) -> String {
        let token = self.tokens.get(self.at).cloned().expect("a complete rule");
        self.at += 1;
        token
    }

    fn sum(&mut self) -> Expr {
        let mut left = self.product();
        while let Some(op @ ("+" | "-")) = self.peek() {
            let op = op.chars().next().unwrap();
            self.at += 1;
            left = Expr::Binary(op, Box::new(left), Box::new(self.product()));
        }
        left
    }

    fn product(&mut self) -> Expr {
        let mut left = self.unary();
        while let Some(op @ ("*" | "/")) = self.peek() {
            let op = op.chars().next().unwrap();
            self.at += 1;
            left = Expr::Binary(op, Box::new(left), Box::new(self.unary()));
        }
        left
    }

    fn unary(&mut self) -> Expr {
        if self.peek() == Some("-") {
            self.at += 1;
            return Expr::Neg(Box::new(self.unary()));
        }
        self.atom()
    }

    fn atom(&mut self) -> Expr {
        let token = self.next();
        if token == "(" {
            let inner = self.sum();
            assert_eq!(self.next(), ")", "a closing parenthesis");
            return inner;
        }
        if let Ok(number) = token.parse::<f64>() {
            return Expr::Number(number);
        }
        if self.peek() == Some("(") {
            self.at += 1;
            let mut args = vec![];
            if self.peek() != Some(")") {
                args.push(self.sum());
                while self.peek() == Some(",") {
                    self.at += 1;
                    args.push(self.sum());
                }
            }
            assert_eq!(self.next(), ")", "a closing parenthesis after `{token}(`");
            return Expr::Call(token, args);
        }
        if token == "y" {
            return Expr::Result;
        }
        let index = |digits: &str| digits.parse::<usize>().ok();
        if let Some(n) = token.strip_prefix("dx").and_then(index) {
            return Expr::Tangent(n);
        }
        if let Some(n) = token.strip_prefix('x').and_then(index) {
            return Expr::Operand(n);
        }
        panic!("unknown name `{token}` in a rule")
    }
}

/// The tangent of `op`'s (single) result by its forward rule `text`, built
/// with `b` from the operands' tangents (`None`: zero); `None` when the
/// tangent is zero.
pub fn tangent(
    b: &mut Builder,
    op: Op,
    text: &str,
    tangents: &[Option<Value>],
    tangent_type: Type,
    width: u32,
) -> Option<Value> {
    let name = op.name();
    let operands = op.operands();
    let env = Env {
        op_name: &name,
        operands: &operands,
        tangents,
        result: op.result(0),
        tangent_type,
        width,
    };
    match env.eval(b, &parse(text)) {
        Term::Zero => None,
        term => Some(env.tangent_value(b, term)),
    }
}

/// What an expression evaluates to.
#[derive(Clone, Copy)]
pub enum Term {
    /// A tangent known to be zero: nothing was built.
    Zero,
    /// A value of the primal's type (or an i1 comparison).
    Primal(Value),
    /// A value of the tangent type.
    Tangent(Value),
}

/// What a rule is evaluated against.
pub struct Env<'a> {
    /// The operation's name (for `same`).
    pub op_name: &'a str,
    pub operands: &'a [Value],
    pub tangents: &'a [Option<Value>],
    pub result: Value,
    /// The type of the result's tangent.
    pub tangent_type: Type,
    /// The number of directions (1 for scalar tangents).
    pub width: u32,
}

impl Env<'_> {
    /// Builds `expr` with `b`.
    pub fn eval(&self, b: &mut Builder, expr: &Expr) -> Term {
        let primal_type = self.result.ty();
        match expr {
            Expr::Number(n) => Term::Primal(b.float(primal_type, *n)),
            Expr::Operand(i) => Term::Primal(self.operands[*i]),
            Expr::Result => Term::Primal(self.result),
            Expr::Tangent(i) => match self.tangents.get(*i).copied().flatten() {
                Some(t) => Term::Tangent(t),
                None => Term::Zero,
            },
            Expr::Neg(inner) => {
                let inner = self.eval(b, inner);
                self.negate(b, inner)
            }
            Expr::Binary(op, l, r) => {
                let (l, r) = (self.eval(b, l), self.eval(b, r));
                self.binary(b, *op, l, r)
            }
            Expr::Call(name, args) => self.call(b, name, args),
        }
    }

    /// A primal value as a tangent: broadcast over the directions.
    fn widen(&self, b: &mut Builder, v: Value) -> Value {
        if self.width == 1 || v.ty() == self.tangent_type {
            return v;
        }
        let ty = if v.ty().element().is_float() {
            self.tangent_type
        } else {
            // An i1 condition: the tangent's shape of booleans.
            b.ctx
                .ty(&format!("vector<{}i1>", self.tangent_type.shape_prefix()))
        };
        b.value("vector.broadcast", &[v], ty, &[])
    }

    fn binary(&self, b: &mut Builder, op: char, l: Term, r: Term) -> Term {
        let name = match op {
            '+' => "arith.addf",
            '-' => "arith.subf",
            '*' => "arith.mulf",
            _ => "arith.divf",
        };
        match (op, l, r) {
            ('*', Term::Zero, _) | ('*', _, Term::Zero) | ('/', Term::Zero, _) => Term::Zero,
            ('+', Term::Zero, x) | ('+' | '-', x, Term::Zero) => x,
            ('-', Term::Zero, x) => self.negate(b, x),
            (_, Term::Primal(a), Term::Primal(c)) => {
                Term::Primal(b.value(name, &[a, c], a.ty(), &[]))
            }
            (_, a, c) => {
                let a = self.tangent_value(b, a);
                let c = self.tangent_value(b, c);
                Term::Tangent(b.value(name, &[a, c], self.tangent_type, &[]))
            }
        }
    }

    fn negate(&self, b: &mut Builder, x: Term) -> Term {
        match x {
            Term::Zero => Term::Zero,
            Term::Primal(v) => Term::Primal(b.value("arith.negf", &[v], v.ty(), &[])),
            Term::Tangent(v) => Term::Tangent(b.value("arith.negf", &[v], v.ty(), &[])),
        }
    }

    /// A term as a value of the tangent type.
    pub fn tangent_value(&self, b: &mut Builder, term: Term) -> Value {
        match term {
            Term::Zero => b.float(self.tangent_type, 0.0),
            Term::Primal(v) => self.widen(b, v),
            Term::Tangent(v) => v,
        }
    }

    fn primal(&self, b: &mut Builder, expr: &Expr) -> Value {
        match self.eval(b, expr) {
            Term::Primal(v) => v,
            _ => panic!(
                "rule for `{}`: `{expr:?}` must not involve tangents",
                self.op_name
            ),
        }
    }

    fn call(&self, b: &mut Builder, name: &str, args: &[Expr]) -> Term {
        let predicate = match name {
            "lt" => Some(4),
            "gt" => Some(2),
            "le" => Some(5),
            "ge" => Some(3),
            _ => None,
        };
        if let Some(predicate) = predicate {
            let (l, r) = (self.primal(b, &args[0]), self.primal(b, &args[1]));
            let bool_type = if l.ty().is_vector() {
                b.ctx.ty(&format!("vector<{}i1>", l.ty().shape_prefix()))
            } else {
                b.ctx.ty("i1")
            };
            let attr = b.ctx.attr(&format!("{predicate} : i64"));
            return Term::Primal(b.value("arith.cmpf", &[l, r], bool_type, &[("predicate", attr)]));
        }
        match name {
            "select" => {
                let condition = self.primal(b, &args[0]);
                let (t, f) = (self.eval(b, &args[1]), self.eval(b, &args[2]));
                if let (Term::Zero, Term::Zero) = (t, f) {
                    return Term::Zero;
                }
                let condition = if condition.ty().is_vector() {
                    self.widen(b, condition)
                } else {
                    condition
                };
                let (t, f) = (self.tangent_value(b, t), self.tangent_value(b, f));
                Term::Tangent(b.value("arith.select", &[condition, t, f], self.tangent_type, &[]))
            }
            "same" => match self.eval(b, &args[0]) {
                Term::Zero => Term::Zero,
                term => {
                    let v = self.tangent_value(b, term);
                    Term::Tangent(b.value(self.op_name, &[v], self.tangent_type, &[]))
                }
            },
            "itof" => {
                let n = self.primal(b, &args[0]);
                Term::Primal(b.value("arith.sitofp", &[n], self.result.ty(), &[]))
            }
            "dec" => {
                let n = self.primal(b, &args[0]);
                let one = b.ctx.attr(&format!("1 : {}", n.ty()));
                let one = b.value("arith.constant", &[], n.ty(), &[("value", one)]);
                Term::Primal(b.value("arith.subi", &[n, one], n.ty(), &[]))
            }
            _ => {
                let op_name = match name {
                    "min" => "arith.minimumf".to_string(),
                    "max" => "arith.maximumf".to_string(),
                    "pow" => "math.powf".to_string(),
                    _ => format!("math.{name}"),
                };
                let values: Vec<Value> = args.iter().map(|a| self.primal(b, a)).collect();
                let ty = values[0].ty();
                Term::Primal(b.value(&op_name, &values, ty, &[]))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_precedence_calls_and_names() {
        assert_eq!(
            parse("dx0 * x1 + -x0 / 2e-1"),
            Expr::Binary(
                '+',
                Box::new(Expr::Binary(
                    '*',
                    Box::new(Expr::Tangent(0)),
                    Box::new(Expr::Operand(1))
                )),
                Box::new(Expr::Binary(
                    '/',
                    Box::new(Expr::Neg(Box::new(Expr::Operand(0)))),
                    Box::new(Expr::Number(0.2))
                ))
            )
        );
        assert_eq!(
            parse("select(ge(x0, x1), dx0, y)"),
            Expr::Call(
                "select".into(),
                vec![
                    Expr::Call("ge".into(), vec![Expr::Operand(0), Expr::Operand(1)]),
                    Expr::Tangent(0),
                    Expr::Result
                ]
            )
        );
    }

    #[test]
    #[should_panic(expected = "unknown name `z`")]
    fn rejects_unknown_names() {
        parse("dx0 * z");
    }
}

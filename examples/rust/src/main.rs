//! Calls the kernels of src/kernels.mlir through the safe wrappers moonc
//! generated, prints the results and checks them against plain Rust.

/// The compiled kernels: `dot`, `axpy`, `matvec`, `accumulate_exp`,
/// `min_max` and `scaled`.
mod kernels {
    moonrt::include_mlir!("kernels");
}

use std::process::ExitCode;

/// Prints each result and counts those that differ from plain Rust by more
/// than 1e-12 (relative).
#[derive(Default)]
struct Checker {
    failures: usize,
}

impl Checker {
    fn check(&mut self, what: &str, got: f64, want: f64) {
        let ok = (got - want).abs() <= 1e-12 * want.abs().max(1.0);
        println!("{what} = {got:?}{}", if ok { "" } else { "  MISMATCH" });
        if !ok {
            eprintln!("{what}: got {got:?}, expected {want:?}");
            self.failures += 1;
        }
    }
}

fn main() -> Result<ExitCode, moonrt::Error> {
    let mut checker = Checker::default();
    let mut x: Vec<f64> = (0..8).map(|i| 0.25 * f64::from(i) - 0.5).collect();
    let mut y: Vec<f64> = (0..8).map(|i| 1.0 / f64::from(i + 1)).collect();

    // A scalar result.
    let want = x.iter().zip(&y).fold(0.0, |acc, (a, b)| acc + a * b);
    checker.check("dot", kernels::dot(&mut x, &mut y)?, want);

    // A vector updated in place.
    let a = 2.5;
    let want: Vec<f64> = x.iter().zip(&y).map(|(xi, yi)| a * xi + yi).collect();
    kernels::axpy(a, &mut x, &mut y)?;
    for (i, (&got, &want)) in y.iter().zip(&want).enumerate() {
        checker.check(&format!("axpy y[{i}]"), got, want);
    }

    // A row-major 3x4 matrix: a slice and its shape.
    let (rows, cols) = (3, 4);
    let mut matrix: Vec<f64> = (0..rows * cols).map(|i| 1.0 / (i as f64 + 1.0)).collect();
    let mut v: Vec<f64> = (0..cols).map(|j| j as f64 + 1.0).collect();
    let mut out = vec![0.0; rows];
    let want: Vec<f64> = matrix
        .chunks(cols)
        .map(|row| row.iter().zip(&v).fold(0.0, |acc, (a, b)| acc + a * b))
        .collect();
    kernels::matvec((&mut matrix, [rows, cols]), &mut v, &mut out)?;
    for (i, (&got, &want)) in out.iter().zip(&want).enumerate() {
        checker.check(&format!("matvec y[{i}]"), got, want);
    }

    // A rank-0 memref: a scalar passed by reference.
    let mut total = 1.0;
    let want = x.iter().fold(total, |acc, xi| acc + xi.exp());
    kernels::accumulate_exp(&mut total, &mut x)?;
    checker.check("accumulate_exp", total, want);

    // Two results, in a struct.
    let extremes = kernels::min_max(&mut y)?;
    let min = y.iter().copied().fold(f64::INFINITY, f64::min);
    let max = y.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    checker.check("min", extremes.r0, min);
    checker.check("max", extremes.r1, max);

    // A memref result in memory the compiled code allocated.
    let result = kernels::scaled(&mut x, -2.0)?.r0;
    // SAFETY: `scaled` returns a fresh, live buffer of `x.len()` elements;
    // it is read once, then freed once.
    let scaled = unsafe {
        let values = result.to_vec();
        result.free_allocated();
        values
    };
    if scaled.len() != x.len() {
        eprintln!("scaled has {} elements, expected {}", scaled.len(), x.len());
        checker.failures += 1;
    }
    for (i, (&got, &xi)) in scaled.iter().zip(&x).enumerate() {
        checker.check(&format!("scaled[{i}]"), got, -2.0 * xi);
    }

    if checker.failures > 0 {
        eprintln!("{} mismatches", checker.failures);
        return Ok(ExitCode::FAILURE);
    }
    println!("all results match");
    Ok(ExitCode::SUCCESS)
}

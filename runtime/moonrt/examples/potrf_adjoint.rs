//! Times `moonrt_dpotrf_adjoint` (blocked, BLAS 3) against the symbolic
//! adjoint it replaces (`W = L^-T Phi(L^T G) L^-1` by one `trmm` and two
//! `trsm` on n x n, as the `potrf` rule generated it), and `potrf` itself,
//! at n = 500 and 1000 (or the sizes given as arguments):
//! `cargo run --release -p moonrt --example potrf_adjoint [N...]`.

use moonrt::{MemRef, moonrt_dpotrf, moonrt_dpotrf_adjoint, moonrt_dtrmm, moonrt_dtrsm};
use std::time::Instant;

/// A symmetric positive definite `n x n` matrix, row-major.
fn spd(n: usize) -> Vec<f64> {
    let mut seed = 1u64;
    let mut next = || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 11) as f64 / (1u64 << 53) as f64 - 0.5
    };
    let b: Vec<f64> = (0..n * n).map(|_| next()).collect();
    let mut a = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..=i {
            let dot: f64 = (0..n).map(|k| b[i * n + k] * b[j * n + k]).sum();
            let v = dot / n as f64 + if i == j { 1.0 } else { 0.0 };
            a[i * n + j] = v;
            a[j * n + i] = v;
        }
    }
    a
}

/// The symbolic adjoint, in place in `g` (lower triangle), with the
/// scratch `w`: what the rule's trmm/trsm calls and generics compute.
fn symbolic(n: usize, l: &MemRef<f64, 2>, g: &mut [f64], w: &mut [f64]) {
    for i in 0..n {
        for j in 0..n {
            w[i * n + j] = if j <= i { g[i * n + j] } else { 0.0 };
        }
    }
    let wm = MemRef::from_slice(w, [n, n]).expect("n x n");
    unsafe { moonrt_dtrmm(0, 1, 1, 0, 1.0, l, &wm) };
    for i in 0..n {
        for j in 0..n {
            w[i * n + j] *= match j.cmp(&i) {
                std::cmp::Ordering::Less => 1.0,
                std::cmp::Ordering::Equal => 0.5,
                std::cmp::Ordering::Greater => 0.0,
            };
        }
    }
    let wm = MemRef::from_slice(w, [n, n]).expect("n x n");
    unsafe {
        moonrt_dtrsm(0, 1, 1, 0, 1.0, l, &wm);
        moonrt_dtrsm(1, 1, 0, 0, 1.0, l, &wm);
    }
    for i in 0..n {
        for j in 0..i {
            g[i * n + j] = w[i * n + j] + w[j * n + i];
        }
        g[i * n + i] = w[i * n + i];
    }
}

/// The median of `runs` timings of `f`, in milliseconds.
fn median_ms(runs: usize, mut f: impl FnMut()) -> f64 {
    f();
    let mut times: Vec<f64> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[runs / 2]
}

fn main() {
    let sizes: Vec<usize> = std::env::args()
        .skip(1)
        .map(|s| s.parse().expect("a size"))
        .collect();
    let sizes = if sizes.is_empty() {
        vec![500, 1000]
    } else {
        sizes
    };
    println!(
        "{:>6}{:>12}{:>14}{:>14}{:>10}{:>12}",
        "n", "potrf ms", "symbolic ms", "blocked ms", "speed-up", "max diff"
    );
    for n in sizes {
        let a = spd(n);
        let mut l = a.clone();
        let lm = MemRef::from_slice(&mut l, [n, n]).expect("n x n");
        let potrf = median_ms(41, || {
            let mut c = a.clone();
            let cm = MemRef::from_slice(&mut c, [n, n]).expect("n x n");
            assert_eq!(unsafe { moonrt_dpotrf(1, &cm) }, 0);
        });
        assert_eq!(unsafe { moonrt_dpotrf(1, &lm) }, 0);
        let g0: Vec<f64> = (0..n * n)
            .map(|k| ((k * 37) % 101) as f64 / 50.0 - 1.0)
            .collect();
        let (mut g, mut w) = (g0.clone(), vec![0.0; n * n]);
        let symbolic_ms = median_ms(41, || {
            g.copy_from_slice(&g0);
            symbolic(n, &lm, &mut g, &mut w);
        });
        let expected = g.clone();
        let blocked_ms = median_ms(41, || {
            g.copy_from_slice(&g0);
            let gm = MemRef::from_slice(&mut g, [n, n]).expect("n x n");
            unsafe { moonrt_dpotrf_adjoint(1, &lm, &gm) };
        });
        let scale = expected.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        let diff = (0..n)
            .flat_map(|i| (0..=i).map(move |j| i * n + j))
            .map(|k| (g[k] - expected[k]).abs() / scale)
            .fold(0.0f64, f64::max);
        println!(
            "{n:>6}{potrf:>12.2}{symbolic_ms:>14.2}{blocked_ms:>14.2}{:>10.2}{diff:>12.1e}",
            symbolic_ms / blocked_ms
        );
    }
}

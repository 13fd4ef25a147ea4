"""Prints the workloads of GradBench's two nested-AD evals, `saddle` and
`particle` (usage: nested.py saddle|particle > NAME.mlir; the printed
files are committed beside this one and built into moonc), in the four
nestings of the outer and inner gradients: forward (F: one moon.jvp per
coordinate) or reverse (R: moon.grad). Entries, one per GradBench function
(ff, fr, rf, rr: outer then inner mode):
- @saddle_ff(s0, s1) .. @saddle_rr -> (x1, x2, y1, y2): GradBench's input
  `start` is the starting point of every gradient descent; x minimizes
  max_y f(x, y), then y maximizes f(x, y) with the outer mode's gradient.
- @particle_ff(w0) .. @particle_rr -> w: GradBench's input `w` is where the
  descent starts.

Both follow Siskind and Pearlmutter's definitions: `argmin` is GradBench's
multivariate_argmin (gradient steps from eta = 1e-5, doubled after ten
improving steps, halved after a worsening one, stopping when the gradient
or the step is below 1e-5); MLIR has no closures, so each argmin loop is
generated for its objective and gradient, and captured variables are
`const` arguments of the inner derivatives.
"""
import sys

def names(prefix, k):
    return [f"%{prefix}{i}" for i in range(k)]

def typed(vals):
    return ", ".join(f"{v}: f64" for v in vals)

def f64s(n):
    return ", ".join(["f64"] * n)

def argmin(name, obj, grad, captured, k):
    """func @name(captured..., x0...) -> (x...): GradBench's multivariate_argmin
    of @obj(captured..., x...) with gradient @grad(captured..., x...) -> (g...)."""
    cap = [f"%cap{i}" for i in range(captured)]
    x0 = names("x0_", k)
    x, g, xp, gp = names("x", k), names("g", k), names("xp", k), names("gp", k)
    state_t = f64s(2 * k + 2) + ", index"   # x, fx, g, eta, i
    lines = []
    a = lines.append
    a(f"func.func @{name}({typed(cap + x0)}) -> ({f64s(k)}) {{")
    a("  %c0 = arith.constant 0 : index")
    a("  %c1 = arith.constant 1 : index")
    a("  %c10 = arith.constant 10 : index")
    a("  %tol = arith.constant 1.0e-5 : f64")
    a("  %eta0 = arith.constant 1.0e-5 : f64")
    a("  %two = arith.constant 2.0 : f64")
    a("  %half = arith.constant 0.5 : f64")
    a("  %true = arith.constant true")
    a("  %false = arith.constant false")
    a(f"  %f0 = func.call @{obj}({', '.join(cap + x0)}) : ({f64s(captured + k)}) -> f64")
    a(f"  %ginit:{k} = func.call @{grad}({', '.join(cap + x0)}) : ({f64s(captured + k)}) -> ({f64s(k)})" if k > 1 else
      f"  %ginit = func.call @{grad}({', '.join(cap + x0)}) : ({f64s(captured + k)}) -> f64")
    g0 = [f"%ginit#{i}" for i in range(k)] if k > 1 else ["%ginit"]
    init = x0 + ["%f0"] + g0 + ["%eta0", "%c0"]
    state = x + ["%fx"] + g + ["%eta", "%i"]
    a(f"  %r:{2 * k + 3} = scf.while ({', '.join(f'{s} = {v}' for s, v in zip(state, init))}) : ({state_t}) -> ({state_t}) {{")
    # |g|
    sq = []
    for i in range(k):
        a(f"    %gg{i} = arith.mulf {g[i]}, {g[i]} : f64")
        sq.append(f"%gg{i}")
    acc = sq[0]
    for i in range(1, k):
        a(f"    %gs{i} = arith.addf {acc}, {sq[i]} : f64")
        acc = f"%gs{i}"
    a(f"    %mag = math.sqrt {acc} : f64")
    a("    %small = arith.cmpf ole, %mag, %tol : f64")
    out_t = "i1, " + state_t
    a(f"    %n:{2 * k + 4} = scf.if %small -> ({out_t}) {{")
    a(f"      scf.yield %true, {', '.join(state)} : {out_t}")
    a("    } else {")
    a("      %ten = arith.cmpi eq, %i, %c10 : index")
    a(f"      %m:{2 * k + 4} = scf.if %ten -> ({out_t}) {{")
    a("        %eta2 = arith.mulf %eta, %two : f64")
    a(f"        scf.yield %false, {', '.join(x + ['%fx'] + g)}, %eta2, %c0 : {out_t}")
    a("      } else {")
    d = []
    for i in range(k):
        a(f"        %s{i} = arith.mulf %eta, {g[i]} : f64")
        a(f"        {xp[i]} = arith.subf {x[i]}, %s{i} : f64")
        a(f"        %d{i} = arith.subf {x[i]}, {xp[i]} : f64")
        a(f"        %dd{i} = arith.mulf %d{i}, %d{i} : f64")
        d.append(f"%dd{i}")
    acc = d[0]
    for i in range(1, k):
        a(f"        %ds{i} = arith.addf {acc}, {d[i]} : f64")
        acc = f"%ds{i}"
    a(f"        %dist = math.sqrt {acc} : f64")
    a("        %near = arith.cmpf ole, %dist, %tol : f64")
    a(f"        %o:{2 * k + 4} = scf.if %near -> ({out_t}) {{")
    a(f"          scf.yield %true, {', '.join(state)} : {out_t}")
    a("        } else {")
    a(f"          %fxp = func.call @{obj}({', '.join(cap + xp)}) : ({f64s(captured + k)}) -> f64")
    a("          %better = arith.cmpf olt, %fxp, %fx : f64")
    a(f"          %p:{2 * k + 4} = scf.if %better -> ({out_t}) {{")
    if k > 1:
        a(f"            %gq:{k} = func.call @{grad}({', '.join(cap + xp)}) : ({f64s(captured + k)}) -> ({f64s(k)})")
        gq = [f"%gq#{i}" for i in range(k)]
    else:
        a(f"            %gq = func.call @{grad}({', '.join(cap + xp)}) : ({f64s(captured + k)}) -> f64")
        gq = ["%gq"]
    a("            %i1 = arith.addi %i, %c1 : index")
    a(f"            scf.yield %false, {', '.join(xp + ['%fxp'] + gq)}, %eta, %i1 : {out_t}")
    a("          } else {")
    a("            %etah = arith.mulf %eta, %half : f64")
    a(f"            scf.yield %false, {', '.join(x + ['%fx'] + g)}, %etah, %c0 : {out_t}")
    a("          }")
    a(f"          scf.yield {', '.join(f'%p#{i}' for i in range(2 * k + 4))} : {out_t}")
    a("        }")
    a(f"        scf.yield {', '.join(f'%o#{i}' for i in range(2 * k + 4))} : {out_t}")
    a("      }")
    a(f"      scf.yield {', '.join(f'%m#{i}' for i in range(2 * k + 4))} : {out_t}")
    a("    }")
    a("    %go = arith.xori %n#0, %true : i1")
    a(f"    scf.condition(%go) {', '.join(f'%n#{i}' for i in range(1, 2 * k + 4))} : {state_t}")
    a("  } do {")
    a(f"  ^bb0({', '.join(f'{s}: {t}' for s, t in zip(state, ['f64'] * (2 * k + 2) + ['index']))}):")
    a(f"    scf.yield {', '.join(state)} : {state_t}")
    a("  }")
    a(f"  return {', '.join(f'%r#{i}' for i in range(k))} : {f64s(k)}")
    a("}")
    return "\n".join(lines)

def gradient(name, obj, captured, k, mode):
    """func @name(captured..., x...) -> (g...): the gradient of @obj in x,
    by `k` JVPs (mode F) or one moon.grad (mode R); captured args const."""
    cap = [f"%cap{i}" for i in range(captured)]
    x = names("x", k)
    acts = ", ".join(["const"] * captured + ["active"] * k)
    lines = [f"func.func @{name}({typed(cap + x)}) -> ({f64s(k)}) {{"]
    if mode == "R":
        lines.append(f"  %g:{k} = moon.grad @{obj}({', '.join(cap + x)}) args [{acts}] : ({f64s(captured + k)}) -> ({f64s(k)})" if k > 1 else
                     f"  %g = moon.grad @{obj}({', '.join(cap + x)}) args [{acts}] : ({f64s(captured + k)}) -> f64")
        outs = [f"%g#{i}" for i in range(k)] if k > 1 else ["%g"]
    else:
        lines.append("  %one = arith.constant 1.0 : f64")
        lines.append("  %zero = arith.constant 0.0 : f64")
        outs = []
        for j in range(k):
            dirs = ["%one" if i == j else "%zero" for i in range(k)]
            lines.append(f"  %d{j} = moon.jvp @{obj}({', '.join(cap + x + dirs)}) args [{acts}] results [active_noneed] : ({f64s(captured + 2 * k)}) -> f64")
            outs.append(f"%d{j}")
    lines.append(f"  return {', '.join(outs)} : {f64s(k)}")
    lines.append("}")
    return "\n".join(lines)

SADDLE = """
// f(x, y) = (x1^2 + x2^2) - (y1^2 + y2^2): x minimizes, y maximizes.
func.func @saddle_f(%x1: f64, %x2: f64, %y1: f64, %y2: f64) -> f64 {
  %a = arith.mulf %x1, %x1 : f64
  %b = arith.mulf %x2, %x2 : f64
  %c = arith.mulf %y1, %y1 : f64
  %d = arith.mulf %y2, %y2 : f64
  %ab = arith.addf %a, %b : f64
  %cd = arith.addf %c, %d : f64
  %r = arith.subf %ab, %cd : f64
  return %r : f64
}
// -f, minimized over y (x captured) to maximize f.
func.func @saddle_neg_f(%x1: f64, %x2: f64, %y1: f64, %y2: f64) -> f64 {
  %v = func.call @saddle_f(%x1, %x2, %y1, %y2) : (f64, f64, f64, f64) -> f64
  %n = arith.negf %v : f64
  return %n : f64
}
"""

def saddle():
    parts = [SADDLE]
    for inner in "FR":
        parts.append(gradient(f"saddle_neg_f_grad_{inner}", "saddle_neg_f", 2, 2, inner))
        parts.append(argmin(f"saddle_argmax_y_{inner}", "saddle_neg_f", f"saddle_neg_f_grad_{inner}", 2, 2))
        parts.append(f"""// max over y of f(x, y), from y = s
func.func @saddle_max_y_{inner}(%s1: f64, %s2: f64, %x1: f64, %x2: f64) -> f64 {{
  %y:2 = func.call @saddle_argmax_y_{inner}(%x1, %x2, %s1, %s2) : (f64, f64, f64, f64) -> (f64, f64)
  %v = func.call @saddle_f(%x1, %x2, %y#0, %y#1) : (f64, f64, f64, f64) -> f64
  return %v : f64
}}""")
    for outer in "FR":
        for inner in "FR":
            oi = outer.lower() + inner.lower()
            parts.append(gradient(f"saddle_max_y_{inner}_grad_{outer}", f"saddle_max_y_{inner}", 2, 2, outer))
            parts.append(argmin(f"saddle_argmin_x_{oi}", f"saddle_max_y_{inner}", f"saddle_max_y_{inner}_grad_{outer}", 2, 2))
            parts.append(f"""// GradBench saddle, outer gradients by {outer}, inner by {inner}; the
// final argmax takes the outer mode's gradient, as the eval asks.
func.func @saddle_{oi}(%s1: f64, %s2: f64) -> (f64, f64, f64, f64) {{
  %x:2 = func.call @saddle_argmin_x_{oi}(%s1, %s2, %s1, %s2) : (f64, f64, f64, f64) -> (f64, f64)
  %y:2 = func.call @saddle_argmax_y_{outer}(%x#0, %x#1, %s1, %s2) : (f64, f64, f64, f64) -> (f64, f64)
  return %x#0, %x#1, %y#0, %y#1 : f64, f64, f64, f64
}}""")
    return "\n\n".join(parts)

PARTICLE = """
// The potential at x of charges at (10, 10 - w) and (10, 0).
func.func @particle_p(%w: f64, %x0: f64, %x1: f64) -> f64 {
  %ten = arith.constant 10.0 : f64
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %cy = arith.subf %ten, %w : f64
  %a0 = arith.subf %x0, %ten : f64
  %a1 = arith.subf %x1, %cy : f64
  %a00 = arith.mulf %a0, %a0 : f64
  %a11 = arith.mulf %a1, %a1 : f64
  %as = arith.addf %a00, %a11 : f64
  %ad = math.sqrt %as : f64
  %ai = arith.divf %one, %ad : f64
  %b1 = arith.subf %x1, %zero : f64
  %b11 = arith.mulf %b1, %b1 : f64
  %bs = arith.addf %a00, %b11 : f64
  %bd = math.sqrt %bs : f64
  %bi = arith.divf %one, %bd : f64
  %p = arith.addf %ai, %bi : f64
  return %p : f64
}
"""

def particle():
    parts = [PARTICLE]
    for inner in "FR":
        parts.append(gradient(f"particle_grad_p_{inner}", "particle_p", 1, 2, inner))
        parts.append(f"""// The squared x at which the particle, charged and under the pull of
// the two charges, reaches the ground (Euler steps of 0.1).
func.func @particle_euler_{inner}(%w: f64) -> f64 {{
  %x00 = arith.constant 0.0 : f64
  %x01 = arith.constant 8.0 : f64
  %v00 = arith.constant 0.75 : f64
  %v01 = arith.constant 0.0 : f64
  %dt = arith.constant 0.1 : f64
  %zero = arith.constant 0.0 : f64
  %s:4 = scf.while (%x0 = %x00, %x1 = %x01, %v0 = %v00, %v1 = %v01) : (f64, f64, f64, f64) -> (f64, f64, f64, f64) {{
    %g:2 = func.call @particle_grad_p_{inner}(%w, %x0, %x1) : (f64, f64, f64) -> (f64, f64)
    %m0 = arith.mulf %dt, %v0 : f64
    %m1 = arith.mulf %dt, %v1 : f64
    %n0 = arith.addf %x0, %m0 : f64
    %n1 = arith.addf %x1, %m1 : f64
    %up = arith.cmpf ogt, %n1, %zero : f64
    %t0 = arith.mulf %dt, %g#0 : f64
    %t1 = arith.mulf %dt, %g#1 : f64
    %u0 = arith.subf %v0, %t0 : f64
    %u1 = arith.subf %v1, %t1 : f64
    %r0 = arith.select %up, %n0, %x0 : f64
    %r1 = arith.select %up, %n1, %x1 : f64
    %q0 = arith.select %up, %u0, %v0 : f64
    %q1 = arith.select %up, %u1, %v1 : f64
    scf.condition(%up) %r0, %r1, %q0, %q1 : f64, f64, f64, f64
  }} do {{
  ^bb0(%a0: f64, %a1: f64, %b0: f64, %b1: f64):
    scf.yield %a0, %a1, %b0, %b1 : f64, f64, f64, f64
  }}
  %neg = arith.negf %s#1 : f64
  %tf = arith.divf %neg, %s#3 : f64
  %dx = arith.mulf %tf, %s#2 : f64
  %xf = arith.addf %s#0, %dx : f64
  %sq = arith.mulf %xf, %xf : f64
  return %sq : f64
}}""")
    for outer in "FR":
        for inner in "FR":
            oi = outer.lower() + inner.lower()
            parts.append(gradient(f"particle_euler_{inner}_grad_{outer}", f"particle_euler_{inner}", 0, 1, outer))
            parts.append(argmin(f"particle_argmin_{oi}", f"particle_euler_{inner}", f"particle_euler_{inner}_grad_{outer}", 0, 1))
            parts.append(f"""// GradBench particle, outer gradients by {outer}, inner by {inner}.
func.func @particle_{oi}(%w0: f64) -> f64 {{
  %w = func.call @particle_argmin_{oi}(%w0) : (f64) -> f64
  return %w : f64
}}""")
    return "\n\n".join(parts)

which = sys.argv[1]
print(f"// GradBench's `{which}`, printed by nested.py ({which}); do not edit.")
print({"saddle": saddle, "particle": particle}[which]())

"""The import graph between the top-level modules of moonc-autodiff, from
`use` declarations and `crate::` paths in code (comments and test modules
left out), in the form docs/architecture.md shows it; then whether it has
a cycle. Usage: autodiff_imports.py <compiler/moonc-autodiff/src>."""
import collections
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1])
modules = sorted({p.relative_to(root).parts[0].removesuffix(".rs")
                  for p in root.glob("*")} - {"lib"})
edges = collections.defaultdict(set)


def top_names(tree):
    """The first path segment of each item of a `use` tree body."""
    depth, item = 0, ""
    for ch in tree + ",":
        depth += (ch == "{") - (ch == "}")
        if ch == "," and depth == 0:
            name = re.match(r"\s*(\w+)", item)
            if name:
                yield name.group(1)
            item = ""
        else:
            item += ch


for path in root.rglob("*.rs"):
    me = path.relative_to(root).parts[0].removesuffix(".rs")
    code = "".join(line.split("//")[0] for line in path.read_text().splitlines(True))
    code = code.split("#[cfg(test)]")[0]
    for start in (m.end() for m in re.finditer(r"crate::\{", code)):
        depth, end = 1, start
        while depth:
            depth += (code[end] == "{") - (code[end] == "}")
            end += 1
        edges[me].update(n for n in top_names(code[start:end - 1]) if n in modules)
    edges[me].update(m for m in re.findall(r"crate::(\w+)", code) if m in modules)

for m in modules:
    edges[m].discard(m)
for m in sorted(modules, key=lambda m: (not edges[m], m)):
    print(f"{m:9} -> {', '.join(sorted(edges[m])) or '(nothing)'}")


def reaches(a, b, seen=()):
    return any(n == b or (n not in seen and reaches(n, b, seen + (n,))) for n in edges[a])


cyclic = [m for m in modules if reaches(m, m)]
print("cycles:", ", ".join(cyclic) or "none")

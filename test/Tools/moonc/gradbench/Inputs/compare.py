"""Compares the outputs in `moonc gradbench`'s responses (argv[1], one JSON
object a line) with expected outputs (argv[2], a JSON object from message id
to output, computed by GradBench's C++ reference tool, `tools/manual`):
same structure and integers, floats within a relative error of 1e-9 (GradBench's
own validation allows 1e-4). Prints one line per compared response."""

import json
import sys


def compare(expected, actual, path):
    if isinstance(expected, dict):
        assert isinstance(actual, dict) and set(actual) == set(expected), (
            f"{path}: keys {sorted(actual)} where {sorted(expected)} were expected"
        )
        for key in expected:
            compare(expected[key], actual[key], f"{path}.{key}")
    elif isinstance(expected, list):
        assert isinstance(actual, list) and len(actual) == len(expected), (
            f"{path}: {actual!r} where a list of {len(expected)} was expected"
        )
        for i, (e, a) in enumerate(zip(expected, actual)):
            compare(e, a, f"{path}[{i}]")
    elif isinstance(expected, int) and not isinstance(expected, bool):
        assert actual == expected and isinstance(actual, int), (
            f"{path}: {actual!r} where the integer {expected} was expected"
        )
    else:
        assert isinstance(actual, float), f"{path}: {actual!r} is not a float"
        error = abs(actual - expected) / max(abs(expected), 1e-300)
        assert abs(actual - expected) <= 1e-9 * max(abs(expected), 1.0), (
            f"{path}: {actual!r} where {expected!r} was expected (relative error {error:.3g})"
        )


expected = json.load(open(sys.argv[2]))
responses = {}
for line in open(sys.argv[1]):
    response = json.loads(line)
    responses[str(response["id"])] = response
for id, output in expected.items():
    response = responses[id]
    assert response.get("success") is True, f"response {id}: {response}"
    compare(output, response["output"], f"response {id}")
    print(f"response {id}: matches")

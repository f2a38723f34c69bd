"""The house in figures: what a newcomer meets, measured the same way on any checkout.

    .venv/bin/python tools/house.py [DIR]     # DIR: a checkout (default: this one)

Prints the largest modules, the import edges between the apps, the import cycles between
modules (strongly connected components of the project's import graph, imports inside
functions included), and how many places still take the steps of a write by hand
(a transaction, a lock, the final check, the standings bump) outside the one place that
takes them (competition/writes.py with competition/locking.py). docs/architecture.md
"A write" says why; tests/competition/test_writes.py keeps it so.
"""

import ast
import sys
from collections import defaultdict
from pathlib import Path

APPS = ("config", "championships", "competition", "judging", "scoring", "puzzle_rules")
# The one place that may take the steps; the models define what they call.
SANCTIONED = {"competition/writes.py", "competition/locking.py", "competition/models.py"}
BY_HAND = {
    "transaction": ("transaction.atomic",),
    "lock": ("lock_team(", "lock_competition(", "select_for_update("),
    "final check": ("ensure_not_final(",),
    "standings bump": ("bump_standings(",),
}


def modules(root: Path) -> dict[str, Path]:
    found = {}
    for app in APPS:
        for path in sorted((root / app).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            rel = path.relative_to(root).with_suffix("")
            name = ".".join(rel.parts).removesuffix(".__init__")
            found[name] = path
    return found


def imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The project's modules that `name` imports, anywhere in it (functions too)."""
    tree = ast.parse(path.read_text())
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(tree):
        targets = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[: len(parts) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            # `from a.b import c`: the module a.b.c if there is one, else what a.b defines.
            targets = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                for alias in node.names
            ]
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                out.add(target)
    return out


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components of more than one module."""
    index, low, stack, on, found, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(10_000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def main(root: Path) -> None:
    mods = modules(root)
    known = set(mods)
    graph = {name: imports(name, path, known) for name, path in mods.items()}
    sizes = sorted(
        (
            (len(path.read_text().splitlines()), str(path.relative_to(root)))
            for path in mods.values()
        ),
        reverse=True,
    )
    print("largest modules:", ", ".join(f"{p} {n}" for n, p in sizes[:5]))
    edges = defaultdict(int)
    for name, targets in graph.items():
        for target in targets:
            a, b = name.split(".")[0], target.split(".")[0]
            if a != b:
                edges[a, b] += 1
    pairs = ", ".join(f"{a}->{b} {n}" for (a, b), n in sorted(edges.items()))
    print(f"import edges between apps: {len(edges)} ({pairs})")
    found = cycles(graph)
    print(f"import cycles: {len(found)}")
    for component in found:
        print("  ", " <-> ".join(component))
    for what, needles in BY_HAND.items():
        places = []
        for path in mods.values():
            rel = str(path.relative_to(root))
            if rel in SANCTIONED:
                continue
            for number, line in enumerate(path.read_text().splitlines(), 1):
                code = line.split("#", 1)[0]
                if any(needle in code for needle in needles) and "def " not in code:
                    places.append(f"{rel}:{number}")
        print(f"{what} by hand: {len(places)}" + (f" ({', '.join(places)})" if places else ""))


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve())

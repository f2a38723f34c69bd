"""No import cycle between the project's modules, counting the imports inside functions too:
import-linter's floors see only module-level imports, and an import hidden in a function
(`from scoring.views_stage import stage` inside views_public.screen) is how a cycle hides.
tools/house.py reads the imports; this test holds the answer at none."""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _house():
    spec = importlib.util.spec_from_file_location("house", ROOT / "tools" / "house.py")
    house = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(house)
    return house


def test_no_module_imports_one_that_imports_it_back():
    house = _house()
    modules = house.modules(ROOT)
    graph = {name: house.imports(name, path, set(modules)) for name, path in modules.items()}
    assert len(graph) > 100
    assert house.cycles(graph) == []


def test_the_check_finds_a_cycle_hidden_in_a_function(tmp_path):
    house = _house()
    app = tmp_path / "scoring"
    app.mkdir()
    (app / "__init__.py").write_text("")
    (app / "a.py").write_text("from scoring.b import thing\n")
    (app / "b.py").write_text("def thing():\n    from scoring import a\n    return a\n")
    modules = house.modules(tmp_path)
    graph = {name: house.imports(name, path, set(modules)) for name, path in modules.items()}
    assert house.cycles(graph) == [["scoring.a", "scoring.b"]]

"""The floors of the code: nothing imports from a floor above its own.

``basehalf_core`` is pure Python in floors (errors < folder < documents < study < teaching <
views); above it sit the widgets, then the command line and the notebook. An import that points
up makes a lower floor depend on a higher one and is refused here, function-level imports
included. The core never imports the UI libraries.
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# Lower number = lower floor. Packages not listed here (stdlib, third party) are not floors.
FLOORS = {
    "basehalf_core.errors": 0,
    "basehalf_core.folder": 1,
    "basehalf_core.documents": 2,
    "basehalf_core.study": 3,
    "basehalf_core.teaching": 4,
    "basehalf_core.views": 5,
    "basehalf_widgets": 6,
    "basehalf_cli": 7,
}
UI_LIBRARIES = ("marimo", "anywidget", "traitlets", "ipywidgets")


def floor_of(module: str) -> int | None:
    """The floor of a dotted module name, or None when it is not ours."""
    for prefix, floor in FLOORS.items():
        if module == prefix or module.startswith(prefix + "."):
            return floor
    if module == "basehalf_core":
        return 0
    return None


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> list[tuple[int, str]]:
    """Every module a file imports (absolute names; relative ones resolved), with its line."""
    here = module_name(path).split(".")
    package = here if path.name == "__init__.py" else here[:-1]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package[: len(package) - node.level + 1] + ([base] if base else []))
            found.append((node.lineno, base))
            # `from basehalf_core import study` imports the floor `study`, not the root.
            found += [(node.lineno, f"{base}.{alias.name}") for alias in node.names]
    return found


def our_files() -> list[Path]:
    return sorted(
        p
        for top in ("basehalf_core", "basehalf_widgets", "basehalf_cli")
        for p in (ROOT / top).rglob("*.py")
    )


def test_no_import_points_up():
    upward = []
    for path in our_files():
        mine = floor_of(module_name(path))
        for line, target in imports(path):
            theirs = floor_of(target)
            if theirs is not None and mine is not None and theirs > mine:
                upward.append(f"{path.relative_to(ROOT)}:{line} imports {target}")
    assert upward == []


def test_core_never_imports_the_ui():
    offenders = [
        f"{path.relative_to(ROOT)}:{line} imports {target}"
        for path in (ROOT / "basehalf_core").rglob("*.py")
        for line, target in imports(path)
        if target.split(".")[0] in UI_LIBRARIES
    ]
    assert offenders == []


@pytest.mark.parametrize(
    "floor", sorted(p.parent.name for p in (ROOT / "basehalf_core").glob("*/__init__.py"))
)
def test_every_floor_lists_its_modules(floor):
    """Each floor's ``__all__`` names exactly the modules it holds: its public face."""
    import importlib

    package = importlib.import_module(f"basehalf_core.{floor}")
    folder = ROOT / "basehalf_core" / floor
    present = {p.stem for p in folder.glob("*.py") if p.stem != "__init__"}
    present |= {p.name for p in folder.iterdir() if (p / "__init__.py").exists()}
    assert sorted(package.__all__) == sorted(present)


@pytest.mark.parametrize("prefix", ["basehalf_core", "basehalf_cli", "basehalf_widgets"])
def test_every_error_has_the_one_root(prefix):
    import importlib
    import pkgutil

    from basehalf_core.errors import BasehalfError

    package = importlib.import_module(prefix)
    strays = []
    for info in pkgutil.walk_packages(package.__path__, prefix + "."):
        module = importlib.import_module(info.name)
        for name, obj in vars(module).items():
            if (
                inspect.isclass(obj)
                and issubclass(obj, BaseException)
                and obj.__module__ == info.name
                and not issubclass(obj, BasehalfError)
            ):
                strays.append(f"{info.name}.{name}")
    assert strays == []


@pytest.mark.parametrize(
    ("module", "floor"),
    [("basehalf_core.folder.fsio", 1), ("basehalf_core.views", 5), ("json", None)],
)
def test_floor_table_reads_names(module, floor):
    assert floor_of(module) == floor

"""The layers are checked by a machine: import-linter's contracts in pyproject.toml.

`make test` fails when a contract breaks (this test), `make lint` says which import broke it.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.support import PROCESS_LIMIT, pytest_env

ROOT = Path(__file__).resolve().parents[1]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def contracts() -> list[dict]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return config["tool"]["importlinter"]["contracts"]


def run_linter(config: Path | None = None) -> subprocess.CompletedProcess[str]:
    command = [str(LINT_IMPORTS), "--no-cache"]
    if config is not None:
        command += ["--config", str(config)]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_every_contract_is_kept():
    done = run_linter()
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"Contracts: {len(contracts())} kept, 0 broken." in done.stdout


@pytest.mark.parametrize(
    ("source", "forbidden"),
    [
        ("gateway_tui.core", "textual"),
        ("gateway_tui.core", "gateway_tui.tui"),
        ("gateway_tui.core", "gateway_tui.cli"),
        ("gateway_tui.cli", "textual"),
        ("gateway_tui.cli", "gateway_tui.tui"),
        ("gateway_tui.demo", "gateway_tui.core"),
        ("gateway_tui.tui", "gateway_tui.demo"),
    ],
)
def test_the_contracts_forbid_what_the_layout_promises(source: str, forbidden: str):
    """A contract loosened by accident (a forbidden module dropped) fails here."""
    assert any(
        contract["type"] == "forbidden"
        and source in contract["source_modules"]
        and forbidden in contract["forbidden_modules"]
        for contract in contracts()
    )


def test_a_broken_layer_is_caught(tmp_path: Path):
    """The checker really looks: core importing Textual breaks the first contract."""
    package = tmp_path / "layered"
    (package / "core").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "core" / "__init__.py").write_text("import textual  # a core that draws\n")
    config = tmp_path / "contracts.toml"
    config.write_text(
        '[tool.importlinter]\nroot_package = "layered"\ninclude_external_packages = true\n'
        "[[tool.importlinter.contracts]]\n"
        'name = "core knows no face"\ntype = "forbidden"\n'
        'source_modules = ["layered.core"]\nforbidden_modules = ["textual"]\n'
    )
    done = subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", "--config", str(config)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
        env={"PYTHONPATH": str(tmp_path), "PATH": ""},
    )
    assert done.returncode != 0
    assert "layered.core -> textual" in done.stdout


def test_test_fast_leaves_out_only_the_slow_suites():
    """`make test-fast` (-m "not slow") still runs the core, app and command-line tests, and
    leaves out the snapshot and fuzzing suites."""
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--collect-only",
            "-q",
            "-m",
            "not slow",
            "-p",
            "no:cacheprovider",
        ],
        cwd=ROOT,
        env=pytest_env(),
        capture_output=True,
        text=True,
        timeout=PROCESS_LIMIT,
    )
    ids = [line for line in done.stdout.splitlines() if "::" in line]
    folders = {line.split("/")[1] for line in ids if line.count("/") >= 2}
    assert {"core", "tui", "cli", "demo"} <= folders
    assert not any(line.startswith(("tests/snapshots/", "tests/fuzz/")) for line in ids)
    assert "deselected" in done.stdout


def _imports_of_test_modules(path: Path) -> list[str]:
    """The test modules (``tests/…/test_*.py``) that the file at ``path`` imports."""
    import ast

    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            modules = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        else:
            continue
        found += [
            m
            for m in modules
            if m.startswith("tests.") and m.rsplit(".", 1)[-1].startswith("test_")
        ]
    return found


def test_no_test_module_imports_another():
    """Helpers that take the app to a screen live in tests/navigation.py, shared data in
    tests/data.py and tests/support.py: a test module importing another one (its helpers run
    that module's import and tie the two together) fails here, naming the import."""
    offenders = {
        str(path.relative_to(ROOT)): imported
        for path in sorted((ROOT / "tests").rglob("*.py"))
        if (imported := _imports_of_test_modules(path))
    }
    assert offenders == {}


def test_the_import_scan_sees_every_form(tmp_path: Path):
    """The scan above finds a test module imported at the top, inside a function, or by name."""
    module = tmp_path / "test_x.py"
    module.write_text(
        "from tests.tui.test_chats import JONAS\n"
        "import tests.core.test_config\n"
        "def f():\n    from tests.tui import test_composer\n"
        "from tests.support import wait_for\n"
    )
    assert _imports_of_test_modules(module) == [
        "tests.tui.test_chats",
        "tests.core.test_config",
        "tests.tui.test_composer",
    ]

"""The commit a run names (``experiments.store.provenance``, ``runs.versions``,
``runs.commit_text``): read from the checkout the code runs in, else from the record ``setup.py``
writes at build time, else said to be unknown with the reason.

One real ``pip wheel`` of a throw-away git copy of this tree (a fresh clone, as CI builds it)
checks the record in the wheel, ``versions()`` read from the wheel's files as site-packages
would hold them, and that the record leaves the engine's source hash alone. The rest runs the
functions on small temporary git repositories.
"""
from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from experiments.store import provenance, runs

pytestmark = pytest.mark.engine_free

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("simulator", "strategies", "play", "replays", "experiments", "reports", "survive_sim")
SKIP = shutil.ignore_patterns("__pycache__", "*.pyc", provenance.RECORD)


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t",
                           *args], check=True, capture_output=True, text=True).stdout.strip()


def make_repo(path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (path / name).parent.mkdir(parents=True, exist_ok=True)
        (path / name).write_text(text)
    git(path, "init", "-q")
    git(path, "add", "-A")
    git(path, "commit", "-qm", "first")
    return path


def tree_copy(dest: Path) -> Path:
    """This tree's package sources and build files, committed to a new git repository."""
    dest.mkdir()
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy2(ROOT / name, dest / name)
    for pkg in PACKAGES:     # links stay links, as in a clone (replays/data/ -> simulator/data/)
        shutil.copytree(ROOT / pkg, dest / pkg, ignore=SKIP, symlinks=True)
    (dest / ".gitignore").write_text("build/\n*.egg-info/\n")
    git(dest, "init", "-q")
    git(dest, "add", "-A")
    git(dest, "commit", "-qm", "copy")
    return dest


def can_build_offline() -> bool:
    """The build requirements (pyproject.toml) are here: build without an isolated environment,
    so no package index is needed; otherwise pip fetches them."""
    from importlib.metadata import PackageNotFoundError, version
    try:
        major = int(version("setuptools").split(".")[0])
    except (PackageNotFoundError, ValueError):
        return False
    return major >= 68 and importlib.util.find_spec("wheel") is not None


# ------------------------------------------------------------------------------ a real build
@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    """``pip wheel`` of a git copy of this tree; the wheel unpacked as site-packages holds it."""
    base = tmp_path_factory.mktemp("build")
    src = tree_copy(base / "src")
    out = base / "out"
    cmd = [sys.executable, "-m", "pip", "wheel", str(src), "--no-deps", "-q", "-w", str(out)]
    if can_build_offline():
        cmd.append("--no-build-isolation")
    subprocess.run(cmd, check=True, capture_output=True, text=True, timeout=600)
    (whl,) = out.glob("*.whl")
    site = base / "site-packages"
    zipfile.ZipFile(whl).extractall(site)
    return src, site


def run_in(site: Path, code: str) -> str:
    """``code`` in a fresh interpreter that imports the packages from ``site`` only."""
    env = dict(os.environ, PYTHONPATH=str(site), SURVIVE_SIM_CACHE=str(site.parent / "cache"))
    return subprocess.run([sys.executable, "-c", code], cwd=site.parent, env=env, check=True,
                          capture_output=True, text=True, timeout=120).stdout.strip()


@pytest.mark.slow                  # one real `pip wheel` of a copy of the tree
def test_the_wheel_carries_the_commit_it_was_built_from(wheel):
    src, site = wheel
    record = json.loads((site / "experiments" / provenance.RECORD).read_text())
    assert record == {"commit": git(src, "rev-parse", "HEAD"), "dirty": False, "unknown": None}
    assert git(src, "status", "--porcelain") == ""          # the build left the clone clean


@pytest.mark.slow
def test_an_installed_package_reads_its_commit_from_the_record(wheel):
    src, site = wheel
    out = json.loads(run_in(site, "import json, experiments.store.runs as r; v = r.versions(); "
                                  "print(json.dumps([v, r.commit_text(v), r.__file__]))"))
    v, text, where = out
    assert Path(where).is_relative_to(site)
    head = git(src, "rev-parse", "HEAD")
    assert (v["git_commit"], v["git_dirty"], v["git_commit_from"]) == (head, False, "build")
    assert v["git_unknown_reason"] is None and text == f"commit {head[:12]}"


@pytest.mark.slow
def test_an_installed_package_without_the_record_says_so(wheel, tmp_path):
    src, site = wheel
    bare = tmp_path / "site-packages"
    shutil.copytree(site / "experiments", bare / "experiments", ignore=SKIP)
    out = json.loads(run_in(bare, "import json, experiments.store.runs as r; v = r.versions(); "
                                  "print(json.dumps([v, r.commit_text(v)]))"))
    v, text = out
    assert v["git_commit"] is None and v["git_commit_from"] is None
    assert v["git_unknown_reason"] == provenance.NO_METADATA
    assert text == "commit unknown (installed without git metadata)"


@pytest.mark.slow
def test_the_record_leaves_the_engine_hash_alone(wheel):
    """The engine's cache is keyed on its compiled sources: the build's generated file must not
    be one of them, or every build would compile the engine again."""
    import simulator
    from simulator.sources import compiled_files
    src, site = wheel
    assert run_in(site, "import simulator; print(simulator.SOURCE_HASH)") == simulator.SOURCE_HASH
    assert all(f.name != provenance.RECORD for f in compiled_files(site))


@pytest.mark.slow
def test_the_wheel_ships_the_data_files_of_replays(wheel):
    """``replays/data/`` links ``simulator/data/``'s files in the repository; the wheel holds
    them as files of ``replays``, and an installed ``replays`` reads them there."""
    src, site = wheel
    assert (src / "replays" / "data" / "board.json").is_symlink()
    for name in ("board.json", "RULES.md"):
        own = site / "replays" / "data" / name
        assert own.is_file() and not own.is_symlink()
        assert own.read_bytes() == (site / "simulator" / "data" / name).read_bytes()
    out = json.loads(run_in(site, "import json; from replays.board import BOARD, BOARD_JSON; "
                                  "from replays.viewer.rules import RULES_MD; "
                                  "print(json.dumps([str(BOARD_JSON), str(RULES_MD), BOARD.n_hex]))"))
    assert out == [str(site / "replays" / "data" / "board.json"),
                   str(site / "replays" / "data" / "RULES.md"), 133]


# ------------------------------------------------------------------------------ the functions
@pytest.fixture
def repo(tmp_path):
    return make_repo(tmp_path / "clone", {"experiments/x.py": "x = 1\n",
                                          "simulator/y.py": "y = 1\n", "notes.txt": "n\n"})


def test_a_checkout_gives_its_commit_and_whether_the_packages_have_changes(repo):
    head = git(repo, "rev-parse", "HEAD")
    assert provenance.checkout(repo) == {"commit": head, "dirty": False, "unknown": None}
    (repo / "notes.txt").write_text("edited\n")                 # outside the packages
    (repo / "elsewhere.txt").write_text("new\n")
    assert provenance.checkout(repo)["dirty"] is False
    (repo / "simulator" / "new.py").write_text("")             # untracked, inside a package
    assert provenance.checkout(repo)["dirty"] is True
    (repo / "simulator" / "new.py").unlink()
    (repo / "experiments" / "x.py").write_text("x = 2\n")     # tracked, edited
    assert provenance.checkout(repo)["dirty"] is True


def test_a_folder_inside_a_checkout_is_not_a_checkout(repo):
    """A virtual environment inside a clone holds site-packages inside the clone's work tree:
    its commit is not the installed code's."""
    inner = repo / ".venv" / "site-packages"
    inner.mkdir(parents=True)
    assert provenance.checkout(inner) == {"commit": None, "dirty": None,
                                          "unknown": "not a git checkout"}
    assert provenance.commit_info(inner / "experiments")["git_unknown_reason"] == \
        provenance.NO_METADATA


def test_commit_info_prefers_the_checkout_then_the_record(repo, tmp_path):
    head = git(repo, "rev-parse", "HEAD")
    info = provenance.commit_info(repo / "experiments")
    assert (info["git_commit"], info["git_commit_from"]) == (head, "checkout")

    installed = tmp_path / "site" / "experiments"
    record = provenance.write_record(repo, installed)
    assert record == {"commit": head, "dirty": False, "unknown": None}
    assert provenance.commit_info(installed) == {
        "git_commit": head, "git_dirty": False, "git_commit_from": "build",
        "git_unknown_reason": None}


def test_a_tree_without_git_keeps_the_record_it_carries_or_says_why(repo, tmp_path):
    """An sdist: made from the checkout (it carries the record), built where there is no git."""
    head = git(repo, "rev-parse", "HEAD")
    unpacked = tmp_path / "survive-sim-0.1.0"
    shutil.copytree(repo, unpacked, ignore=shutil.ignore_patterns(".git"))
    provenance.write_record(repo, unpacked / "experiments")         # what the sdist step does
    built = tmp_path / "build" / "experiments"
    assert provenance.write_record(unpacked, built)["commit"] == head
    assert provenance.read_record(built)["commit"] == head

    (unpacked / "experiments" / provenance.RECORD).unlink()       # an sdist made without it
    record = provenance.write_record(unpacked, built)
    assert record == {"commit": None, "dirty": None,
                      "unknown": "built without git metadata: not a git checkout"}
    info = provenance.commit_info(built)
    assert info["git_commit"] is None
    assert provenance.commit_text(info) == \
        "commit unknown (built without git metadata: not a git checkout)"


def test_a_checkout_git_cannot_read_says_why(repo, monkeypatch):
    monkeypatch.setenv("PATH", str(repo / "no-such-bin"))
    info = provenance.commit_info(repo / "experiments")
    assert info["git_commit"] is None and info["git_unknown_reason"] == "git not found"


def test_versions_of_this_tree_name_a_commit_or_say_why():
    v = runs.versions()
    assert {"git_commit", "git_dirty", "git_commit_from", "git_unknown_reason"} <= set(v)
    assert (v["git_commit"] is None) == (v["git_unknown_reason"] is not None)
    if (ROOT / ".git").exists() and shutil.which("git"):
        assert v["git_commit"] == git(ROOT, "rev-parse", "HEAD")
        assert v["git_commit_from"] == "checkout"


@pytest.mark.parametrize("versions, text", [
    ({"git_commit": "1a2b3c4d5e6f7a8b9c0d", "git_dirty": False}, "commit 1a2b3c4d5e6f"),
    ({"git_commit": "1a2b3c4d5e6f7a8b9c0d", "git_dirty": True}, "commit 1a2b3c4d5e6f (+dirty)"),
    ({"git_commit": None, "git_unknown_reason": provenance.NO_METADATA},
     "commit unknown (installed without git metadata)"),
    # manifests written before the build record: a suffix, or None without a reason
    ({"git_commit": "1a2b3c4d5e6f7a8b9c0d+dirty"}, "commit 1a2b3c4d5e6f (+dirty)"),
    ({"git_commit": None}, "commit unknown (not recorded)"),
    ({}, "commit unknown (not recorded)"),
    (None, "commit unknown (not recorded)"),
])
def test_commit_text(versions, text):
    assert runs.commit_text(versions) == text

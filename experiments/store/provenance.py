"""Which commit the running code came from: the git checkout it runs in, else the record the
build left beside this file (``_build.json``), else a plain statement that it is unknown.

A run's manifest and a report's header name the commit so that a result can be traced to its
code. Run from a clone (or installed editable), git answers. Installed with ``pip install .``
the package lives in site-packages, away from any checkout, so ``setup.py`` asks git when the
wheel is built and writes the answer into the package; an sdist carries the answer of the tree
it was made from. The record lives in ``experiments/``, outside the packages numba compiles
(``simulator.sources``), so writing it never changes the engine's hash or its cache.

Standard library only, and importing nothing of the package: ``setup.py`` loads this file by
its path before the package's dependencies exist.
"""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

RECORD = "_build.json"
# what "dirty" looks at: the packages the wheel installs (uncommitted or untracked files there)
PACKAGES = ("simulator", "strategies", "play", "replays", "experiments", "reports", "survive_sim")
NO_METADATA = "installed without git metadata"
# the package whose build records the commit (``experiments/_build.json``): the one above this
HERE = Path(__file__).resolve().parents[1]


def _git(root: Path, *args: str) -> subprocess.CompletedProcess:
    # --no-optional-locks: a status call must not take the index lock from a user's git
    return subprocess.run(["git", "--no-optional-locks", "-C", str(root), *args],
                          capture_output=True, text=True, timeout=10)


def checkout(root: Path) -> dict:
    """``{"commit", "dirty", "unknown"}`` of the git work tree whose top folder is ``root``
    (the folder holding the packages). ``commit`` is None, and ``unknown`` says why, when
    ``root`` is not the top of a checkout -- a site-packages folder inside some other clone is
    not -- or git is missing or refuses (e.g. a checkout owned by another user)."""
    root = Path(root).resolve()
    try:
        top = _git(root, "rev-parse", "--show-toplevel", "HEAD")
        if top.returncode != 0:
            first = (top.stderr.strip().splitlines() or ["git rev-parse failed"])[0]
            why = "not a git checkout" if "not a git repository" in first else f"git: {first}"
            return {"commit": None, "dirty": None, "unknown": why}
        where, commit = top.stdout.strip().splitlines()
        if Path(where).resolve() != root:
            return {"commit": None, "dirty": None, "unknown": "not a git checkout"}
        status = _git(root, "status", "--porcelain", "--", *PACKAGES)
        if status.returncode != 0:
            return {"commit": commit, "dirty": None, "unknown": None}
        return {"commit": commit, "dirty": bool(status.stdout.strip()), "unknown": None}
    except FileNotFoundError:
        return {"commit": None, "dirty": None, "unknown": "git not found"}
    except (OSError, subprocess.SubprocessError, ValueError) as e:
        return {"commit": None, "dirty": None, "unknown": f"git failed ({type(e).__name__})"}


def read_record(package: Path = HERE) -> dict | None:
    """The record a build wrote into ``package`` (None when there is none or it is unreadable)."""
    try:
        found = json.loads((Path(package) / RECORD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return found if isinstance(found, dict) and "commit" in found else None


def write_record(root: Path, package: Path) -> dict:
    """At build time: ask git about the tree at ``root`` and write the answer to ``package /
    RECORD``. A tree without git metadata (an unpacked sdist) keeps the record it carries;
    with none, the record says the commit is unknown and why."""
    root, package = Path(root), Path(package)
    found = checkout(root)
    if found["commit"] is None:
        carried = read_record(root / "experiments")
        found = carried if carried is not None else {
            "commit": None, "dirty": None,
            "unknown": f"built without git metadata: {found['unknown']}"}
    package.mkdir(parents=True, exist_ok=True)
    (package / RECORD).unlink(missing_ok=True)        # never write through a hard link
    (package / RECORD).write_text(json.dumps(found, indent=1, sort_keys=True) + "\n",
                                  encoding="utf-8")
    return found


def commit_info(package: Path = HERE) -> dict:
    """The commit of the running code, as ``versions()`` records it: ``git_commit`` (the full
    hash, or None), ``git_dirty`` (uncommitted changes in the packages; None when unknown),
    ``git_commit_from`` (``"checkout"``, ``"build"`` or None) and ``git_unknown_reason`` (why
    the commit is unknown, or None)."""
    package = Path(package).resolve()
    root = package.parent
    live = checkout(root)
    if live["commit"]:
        return _info(live, "checkout")
    record = read_record(package)
    if record is not None and record.get("commit"):
        return _info(record, "build")
    if record is not None:
        why = record.get("unknown") or "not recorded"
    elif (root / ".git").exists():          # a checkout that git could not read
        why = live["unknown"]
    else:
        why = NO_METADATA
    return {"git_commit": None, "git_dirty": None, "git_commit_from": None,
            "git_unknown_reason": why}


def _info(found: dict, source: str) -> dict:
    return {"git_commit": found["commit"], "git_dirty": found.get("dirty"),
            "git_commit_from": source, "git_unknown_reason": None}


def commit_text(versions: dict | None) -> str:
    """The commit as a report header says it: ``commit 1a2b3c4d5e6f``, ``commit 1a2b3c4d5e6f
    (+dirty)`` (the code had uncommitted changes) or ``commit unknown (installed without git
    metadata)``. ``versions`` is a manifest's ``versions``; manifests written before the commit
    was recorded at build time (``git_commit`` None, or ending in ``+dirty``) read as
    ``commit unknown (not recorded)`` and ``commit ... (+dirty)``."""
    v = versions or {}
    commit, dirty = v.get("git_commit"), v.get("git_dirty")
    if isinstance(commit, str) and commit.endswith("+dirty"):
        commit, dirty = commit[:-len("+dirty")], True
    if commit:
        return f"commit {commit[:12]}" + (" (+dirty)" if dirty else "")
    return f"commit unknown ({v.get('git_unknown_reason') or 'not recorded'})"

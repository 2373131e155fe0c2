"""The build step that records the git commit in the package (``experiments/_build.json``), so
that an installed copy can say which commit it was built from (``experiments.store.provenance``).
Everything else about the package is in pyproject.toml."""
import importlib.util
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist

ROOT = Path(__file__).resolve().parent


def _provenance():
    """``experiments/store/provenance.py`` loaded by its path: the package's dependencies may not be
    installed yet, and the package itself must not be imported by its own build."""
    spec = importlib.util.spec_from_file_location("_survive_sim_provenance",
                                                  ROOT / "experiments" / "store" / "provenance.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class BuildPy(build_py):
    """Copies the packages, then writes the record beside them. An editable install runs from
    its checkout, where git answers at run time: nothing to write."""

    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return
        _provenance().write_record(ROOT, Path(self.build_lib) / "experiments")


class Sdist(sdist):
    """An sdist carries the record of the tree it was made from: a wheel built from it later
    has no git to ask."""

    def make_release_tree(self, base_dir, files):
        super().make_release_tree(base_dir, files)
        _provenance().write_record(ROOT, Path(base_dir) / "experiments")


setup(cmdclass={"build_py": BuildPy, "sdist": Sdist})

"""``survive-sim``: the command line, one module per command -- ``simulate``, ``replay``,
``draw``, ``view``, ``referee``, ``summary``, ``bench``, ``sweep``, ``stats``, ``report``,
``study``, ``fairest``, ``tournament``, ``tune``, ``strategies`` -- above the Python API: a command parses
its options, calls the API (the module of ``survive_sim.api`` it needs) and prints
(docs/architecture.md says which layer each command calls).

One module per command, each registering itself on the group ``main`` when imported (the list at
the end of this file) on the group of ``group``; the shared options, file writing and progress
live in ``options``, ``files`` and ``progress``. Heavy modules (numpy, pandas, the compiled engine) are imported
inside the commands, so ``survive-sim --help`` and input errors answer at once. Bad input of any
kind ends with one line on stderr that names the problem and the accepted values, exit code 2,
no traceback, and no output file: every check runs before the first game is played, and files
are written to a temporary name in the target directory and renamed into place only when
complete. Ctrl-C and SIGTERM remove the temporary file too (exit codes 130 and 143).
"""
from .group import main

__all__ = ["main"]

# The commands. Each module adds its command to `main` when imported: a new command is a new
# module here and one more name in this list.
from . import (bench, draw, fairest, referee, replay, report, simulate, stats,  # noqa: F401,E402
               strategies, study, summary, sweep, tournament, tune, view)

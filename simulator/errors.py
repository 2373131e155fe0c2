"""Errors that cross the layers and must stay light to import (the command line catches them
before numpy or numba are loaded)."""
from __future__ import annotations


class PluginError(Exception):
    """A user's plug-in failed while the games ran: it raised, answered a row outside its legal
    options, or was interrupted while it had not returned. Bad input, not an engine fault: the
    command line ends with this one line and exit code 2. Not a ``RuntimeError``, so that the
    commands' handlers of engine errors leave it to the top."""

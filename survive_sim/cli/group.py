"""The command group ``main`` and how every command ends: one line for bad input (exit 2),
the shell's codes for signals, and no traceback. The commands register on it
(``@main.command``); ``survive_sim.cli`` imports them all."""
from __future__ import annotations

import contextlib
import sys

import click

from simulator.errors import PluginError

from .files import Terminated, io_problem, quiet_signals, signals_unwind
from .options import one_line


class OneLineErrors(click.Group):
    """A click group whose usage errors are a single line on stderr (exit code 2).

    click's own report adds a usage line and a hint; here the message alone, prefixed with the
    command that failed, so scripts and people see exactly one line naming the problem. During
    the command SIGINT and SIGTERM unwind the stack (``files.signals_unwind``) so that no
    temporary file is left, and end with the shell's codes 130 and 143. A failure to write (a
    full disk, a quota, a read-only file system) is one line naming the output, exit code 1,
    as the commands' own ``could not write`` lines."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        prog_name = prog_name or "survive-sim"
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **extra)
        try:
            with signals_unwind():
                rv = super().main(args, prog_name, complete_var, False, **extra)
        except click.exceptions.Abort as e:
            cause = e.__cause__ or e.__context__
            interrupted = isinstance(cause, KeyboardInterrupt)
            if interrupted and args is None:
                quiet_signals()
            click.echo(f"{prog_name}: {'interrupted' if interrupted else 'aborted'}"
                       f"{_notes(cause)}", err=True)
            _exit(130 if interrupted else 1)
        except KeyboardInterrupt as e:
            if args is None:                       # a process of its own: leaving, a second
                quiet_signals()                    # Ctrl-C must not print a traceback
            click.echo(f"{prog_name}: interrupted{_notes(e)}", err=True)
            _exit(130)
        except Terminated as e:
            if args is None:
                quiet_signals()
            click.echo(f"{prog_name}: terminated{_notes(e)}", err=True)
            _exit(e.code)
        except OSError as e:
            if isinstance(e, BrokenPipeError):
                raise
            # writing failed (a full disk ...): what was being written is removed already
            click.echo(f"{self._command_path(prog_name, args)}: error: "
                       f"{one_line(io_problem(e))}", err=True)
            _exit(1)
        except click.ClickException as e:
            ctx = getattr(e, "ctx", None)
            where = ctx.command_path if ctx is not None else prog_name
            click.echo(f"{where}: error: {one_line(e.format_message())}", err=True)
            _exit(e.exit_code)
        except PluginError as e:
            # a user's plug-in failed while the games ran: bad input, named by file, strategy,
            # seat and what it did
            click.echo(f"{self._command_path(prog_name, args)}: error: {one_line(e)}", err=True)
            _exit(2)
        _exit(rv if isinstance(rv, int) else 0)

    def _command_path(self, prog_name: str, args) -> str:
        words = list(sys.argv[1:] if args is None else args)
        name = next((w for w in words if w in self.commands), None)
        return f"{prog_name} {name}" if name else prog_name


def _notes(e) -> str:
    """What an interrupted command added to the signal's exception (``add_note``): which
    plug-in seat had not returned."""
    notes = getattr(e, "__notes__", None) or ()
    return "".join(f": {one_line(n)}" for n in notes)


def _exit(code: int):
    """``sys.exit``, or ``os._exit`` after flushing when a compiled call is still running on
    the engine thread (an interrupted plug-in that does not return): the interpreter's own
    exit would wait for it. Everything the command wrote was cleaned up while unwinding."""
    engine = sys.modules.get("play.simulate")
    if engine is not None and engine.engine_busy():
        import os
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        os._exit(code)
    sys.exit(code)


@click.group(cls=OneLineErrors, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="survive-sim", prog_name="survive-sim")
def main():
    """Balance simulator for Survive: Escape from Atlantis! (2-6 players).

    Game i of a run is a pure function of (seed, i, settings): any game of a results table can be
    replayed move by move with `survive-sim replay`.
    """

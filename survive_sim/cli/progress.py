"""What a long command says on stderr while it runs: the compile note and the progress.

A person watching a terminal, or ``tail -f`` on a ``nohup`` log, should always know what the
command is doing and when it will end. So ``Progress`` names the *phase* (``sweep five-six:
playing``, ``tune: generation 3/12``), counts its units (done/total, rate, ETA), and never stays
silent for long: on a terminal a tqdm bar, refreshed every second; anywhere else (a log, a
pipe, a batch job) a bar's carriage returns would fill the log, so a plain line when a phase
begins, every ``every`` seconds (10 by default, ``SURVIVE_SIM_PROGRESS_EVERY`` to change) --
from a heartbeat thread when no unit finished in that time -- and one when the work is done.
``quiet`` (``--no-progress``) silences all of it.

The phases are told by the code that knows them: ``experiments`` functions take a *watch*
(``experiments.store.watch``) and a ``Progress`` is one.
"""
from __future__ import annotations

import math
import os
import sys
import threading
import time
import weakref

import click

ENV = "SURVIVE_SIM_PROGRESS_EVERY"
EVERY = 10.0             # seconds between lines in a log, at most (the heartbeat keeps it)
TTY_EVERY = 1.0          # a terminal bar's refresh while nothing finishes (its clock ticks on)
MIN_WAIT = 0.05          # the heartbeat thread never spins faster than this
MIN_BEAT = 1.0           # nor repeats a line more often (every = 0: a line at every update)


def interval(every: float | None = None) -> float:
    """Seconds between progress lines: ``every``, else ``$SURVIVE_SIM_PROGRESS_EVERY``, else
    10. A bad value in the environment is a usage error (one line, exit 2)."""
    if every is not None:
        return float(every)
    raw = os.environ.get(ENV, "").strip()
    if not raw:
        return EVERY
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value >= 0):
        raise click.UsageError(f"{ENV}={raw!r}: give the seconds between progress lines, a "
                               f"number >= 0 (default {EVERY:g}; 0 = a line at every update)")
    return value


def duration(seconds: float) -> str:
    """``12.3 s``, ``4 min 05 s``, ``2 h 07 min``: what a person reads at a glance."""
    if round(seconds, 1) < 60:
        return f"{max(seconds, 0.0):.1f} s"
    s = round(seconds)
    if s < 3600:
        return f"{s // 60} min {s % 60:02d} s"
    return f"{s // 3600} h {s % 3600 // 60:02d} min"


def rate_text(r: float) -> str:
    """A rate for people: whole numbers from 10 up, one decimal from 1, else two significant
    digits (a search tournament's 0.0077 games/s is not "0 games/s")."""
    return f"{r:,.0f}" if r >= 10 else f"{r:.1f}" if r >= 1 else f"{r:.2g}"


class Progress:
    """Progress of a command in phases, on stderr.

    ``Progress(total=None, unit="game", phase="", *, title="", quiet=False, done=0, ...)``
    starts the first phase; ``update(n)`` as units finish; ``phase = "..."`` renames the
    current phase (its counts go on); ``begin(phase, total, done=0, unit=None)`` starts a new
    one (its own counts, rate and ETA; ``total=None``: a phase without units, shown with its
    elapsed time); ``note(text)`` prints a line without breaking the bar; ``close()`` at the
    end (or use it as a context manager: an exception stops it without the final line).

    What is shown is ``title: phase`` (either may be empty). ``done`` of ``begin`` and of the
    constructor are units finished before this process (a resumed run): they count towards
    done/total but not towards the rate. ``every`` (default: ``interval()``) is the most
    seconds between two lines in a log; ``clock``, ``stream`` and ``heartbeat=False`` (then
    call ``tick()`` yourself) are for tests.
    Thread-safe; nothing is printed after ``close()``.
    """

    def __init__(self, total: int | None = None, unit: str = "game", phase: str = "", *,
                 title: str = "", quiet: bool = False, done: int = 0, stream=None,
                 every: float | None = None, clock=time.monotonic, heartbeat: bool = True):
        self.quiet = quiet
        self.stream = stream if stream is not None else sys.stderr
        self.every = 0.0 if quiet else interval(every)
        self.clock = clock
        self.unit0 = unit
        self._title = title
        self._lock = threading.RLock()
        self._closed = quiet
        self._tty = not quiet and _isatty(self.stream)
        self.bar = None
        self._beat = self._stop = None
        self.last = clock()
        self._start(phase, total, done, unit)
        if not quiet and heartbeat:
            self._stop = threading.Event()
            self._beat = threading.Thread(target=_heartbeat, name="progress-heartbeat",
                                          args=(weakref.ref(self), self._stop), daemon=True)
            self._beat.start()

    # ------------------------------------------------------------------ what it shows
    @property
    def name(self) -> str:
        return ": ".join(x for x in (self._title, self._phase) if x)

    @property
    def phase(self) -> str:
        return self._phase

    @phase.setter
    def phase(self, text: str) -> None:
        """Rename the current phase; its counts, rate and ETA go on."""
        with self._lock:
            self._phase = text
            if self.bar is not None:
                self.bar.set_description(self.name or None)

    @property
    def title(self) -> str:
        return self._title

    @title.setter
    def title(self, text: str) -> None:
        with self._lock:
            self._title = text
            if self.bar is not None:
                self.bar.set_description(self.name or None)

    @property
    def total(self) -> int | None:
        return self._total

    @total.setter
    def total(self, value: int | None) -> None:
        with self._lock:
            self._total = value
            if self.bar is not None:
                self.bar.total = value
                self.bar.refresh()

    # ------------------------------------------------------------------ changes
    def begin(self, phase: str, total: int | None = None, done: int = 0,
              unit: str | None = None) -> None:
        """End the current phase (its last line, without ETA) and start ``phase``: ``total``
        units (None: none to count) of which ``done`` were finished before; ``unit`` None
        keeps the unit given to the constructor."""
        with self._lock:
            if self._closed:
                return
            self._finish()
            self._start(phase, total, done, unit or self.unit0)

    def finish(self) -> None:
        """End the current phase (its last line) and start none (idle: no heartbeat either).
        For a caller that changes ``title`` next, so that the line is still shown under the
        old one, or that checks its input next: bad input must stay a single line."""
        self.begin("")

    def update(self, n: int = 1) -> None:
        with self._lock:
            self.done += n
            if self._closed:
                return
            if self._tty:
                if self.bar is not None:
                    self.bar.update(n)
            elif self._total is None or self.done < self._total:
                now = self.clock()
                if now - self.last >= self.every:
                    self._line(now)

    def note(self, text: str) -> None:
        """A line of its own (an announcement, a round's result), above the bar if any."""
        with self._lock:
            if self._closed:
                return
            if self.bar is not None:
                self.bar.write(text, file=self.stream)
            else:
                print(text, file=self.stream, flush=True)

    def tick(self) -> float:
        """The heartbeat: repeat the state with its elapsed time if nothing was written for
        ``every`` seconds (at least ``MIN_BEAT``; on a terminal: redraw the bar, so its clock
        moves). Returns the seconds until it is due again. Called by the heartbeat thread;
        tests call it with a fake clock."""
        with self._lock:
            if self._closed:
                return TTY_EVERY
            if self._tty:
                if self.bar is not None:
                    self.bar.refresh()
                return TTY_EVERY
            now, beat = self.clock(), max(self.every, MIN_BEAT)
            if now - self.last >= beat and self._phase:     # idle (no phase): nothing to say
                self._line(now)
            wait = beat - (now - self.last)
            return wait if wait > 0 else beat

    def close(self) -> None:
        """The last line of the last phase (when it was counted to its end); then silence."""
        with self._lock:
            if not self._closed:
                self._finish(last=True)
                self._closed = True
        self._halt()

    def abort(self) -> None:
        """Stop without a last line (an error, Ctrl-C): the bar stays where it stopped."""
        with self._lock:
            if not self._closed and self.bar is not None:
                self.bar.close()
                self.bar = None
            self._closed = True
        self._halt()

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc) -> None:
        if exc[0] is None:
            self.close()
        else:
            self.abort()

    # ------------------------------------------------------------------ inside
    def _start(self, phase: str, total: int | None, done: int, unit: str) -> None:
        self._phase, self._total, self.unit = phase, total, unit
        self.done = self.initial = done
        self.start = self.clock()
        self._shown = None
        if self._closed:
            return
        if self._tty:
            if not phase and total is None:          # idle (``finish``): no bar to show
                return
            from tqdm import tqdm
            fmt = None if total is not None else "{desc} ... {elapsed}"
            self.bar = tqdm(total=total, initial=done, unit=unit, unit_scale=True,
                            file=self.stream, desc=self.name or None, dynamic_ncols=True,
                            bar_format=fmt)
        elif self._phase:                            # a title alone says nothing yet
            self._line(self.start)

    def _finish(self, last: bool = False) -> None:
        """The current phase's last line: counted phases only, once per state, no ETA; at
        ``close`` only when the phase reached its total."""
        if self._tty:
            if self.bar is not None:
                self.bar.close()
                self.bar = None
        elif self._total is not None and self.done != self._shown and \
                (not last or self.done >= self._total):
            self._line(self.clock(), final=True)

    def _halt(self) -> None:
        if self._stop is not None:
            self._stop.set()
            if self._beat is not threading.current_thread():
                self._beat.join(timeout=1.0)

    def _line(self, now: float, final: bool = False) -> None:
        self.last = now
        self._shown = self.done
        print(self.text(now, final), file=self.stream, flush=True)

    def text(self, now: float | None = None, final: bool = False) -> str:
        """The state as one line: ``title: phase: done/total units (pct%) in elapsed, rate
        units/s, ETA t`` (no ETA once ``final``); a phase without units shows its elapsed time."""
        now = self.clock() if now is None else now
        elapsed = max(now - self.start, 0.0)
        name = self.name or "progress"
        units = f"{self.unit}s"
        if self._total is None and self.done == self.initial:
            return f"{name} ..." + (f" {duration(elapsed)}" if elapsed > 0 else "")
        if self._total is None:
            count = f"{self.done:,} {units}"
        else:
            pct = 100 if self._total <= 0 else min(100, 100 * self.done // self._total)
            count = f"{self.done:,}/{self._total:,} {units} ({pct}%)"
        out = f"{name}: {count} in {duration(elapsed)}"
        played = self.done - self.initial
        rate = played / elapsed if played > 0 and elapsed > 0 else None
        if rate is not None:
            out += f", {rate_text(rate)} {units}/s"
        if not final and self._total is not None and self.done < self._total:
            out += (f", ETA {duration((self._total - self.done) / rate)}" if rate
                    else ", ETA unknown")
        return out


def _heartbeat(ref, stop: threading.Event) -> None:
    """The thread behind ``Progress.tick``: holds only a weak reference, so a progress that
    was never closed and is gone stops it too; a broken stream ends it quietly."""
    wait = MIN_WAIT
    while not stop.wait(max(wait, MIN_WAIT)):
        progress = ref()
        if progress is None:
            return
        try:
            wait = progress.tick()
        except Exception:                      # noqa: BLE001 -- stderr closed, at exit ...
            return
        finally:
            del progress


def _isatty(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


# what a cold compile costs, measured on a 2-core VM (docs/performance.md, "Cold compile")
COMPILE_TIME = ("about 1.5 minutes on 2 cores, then 1-1.5 minutes the first time a heuristic "
                "strategy plays and 10-20 s for each further one")


def compile_note(entry: str, quiet: bool) -> None:
    """Say so on stderr when the engine is about to compile (no cache for these sources), and
    report the progress of any compile the command then runs (the engine, or a strategy the
    first time it plays): compiling is silent otherwise, for minutes."""
    reporter = compile_progress()
    reporter.quiet, reporter.sink = quiet, None       # a new command: no bar to write through yet
    if quiet or engine_cached(entry):
        return
    import simulator
    click.echo(f"survive-sim: compiling the engine for these sources ({COMPILE_TIME}; once, "
               f"cached in {simulator.CACHE_DIR})", err=True)


# the compiled file an entry point's cache is known by: both play the one compiled game
_ENGINE_FILES = {"run_games": "play_games", "replay_game": "play_games"}


def engine_cached(entry: str = "run_games") -> bool:
    """numba's cache of the engine for this checkout exists. numba keeps it in a folder
    named after the *path* of the source folder, so a second checkout of the same sources
    (a git worktree) compiles again: look in this checkout's folder, not any."""
    import glob

    import play
    import simulator
    name = _ENGINE_FILES.get(entry, entry)
    where = os.path.dirname(os.path.abspath(play.__file__))
    try:
        from numba.core.caching import _CacheLocator
        sub = _CacheLocator.get_suitable_cache_subpath(os.path.join(where, "engine.py"))
    except (ImportError, AttributeError):                  # another numba: any folder
        sub = "**"
    return bool(glob.glob(os.path.join(simulator.CACHE_DIR, sub, f"engine.{name}-*.nbi"),
                          recursive=True))


def load_engine(progress: Progress, settings, threads: int | None = None,
                strategies=()) -> None:
    """Load (or compile) the engine by playing one game, as a phase of its own: the first
    call of a process reads numba's cache (about a second) or compiles (minutes). A compile
    runs in a child process (``compile_apart``), with the seat functions of the built-ins in
    ``strategies`` (specs) too: compiling holds 1-1.5 GB that numba never gives back, which a
    long command (a study's report and its worker processes) should not carry. Compile lines
    (``CompileProgress``) go through the progress, so they do not break its bar."""
    from play.simulate import numba_threads, run_records
    compile_progress().sink = progress.note
    names = _uncached_builtins(list(strategies) + list(settings.strategies))
    cached = engine_cached()
    if not cached or names:
        what = ["the engine"] * (not cached) + names
        progress.begin(f"compiling {', '.join(what)} (once; the engine about 1.5 minutes, a "
                       f"strategy 10 s to 1 minute)")
        compile_apart(names, progress.note)
    progress.begin("loading the engine")
    with numba_threads(threads):
        run_records(warm_settings(settings), 0, 0, 1)


def warm_settings(settings):
    """The settings ``load_engine`` plays its one game with: ``settings`` with every seat that
    searches (re-enters the game and has a ``budget``) at budget 1. The code is the same
    (the budget is data), but a game of ``search256:budget=4096`` takes minutes that loading
    would throw away; at budget 1 it costs about two games of its rollout rung."""
    import dataclasses

    from strategies.registry import StrategyError, parse_spec
    specs = []
    for spec in settings.strategies:
        try:
            s, values = parse_spec(spec)
        except StrategyError:
            specs.append(spec)
            continue
        if not s.reenters or "budget" not in {p.name for p in s.params}:
            specs.append(spec)
            continue
        values["budget"] = 1.0
        specs.append(s.name + ":" + ",".join(
            f"{p.name}={p.spell(values[p.name]) or repr(float(values[p.name]))}"
            for p in s.params if p.name in values))
    if tuple(specs) == tuple(settings.strategies):
        return settings
    return dataclasses.replace(settings, strategies=tuple(specs))


def _uncached_builtins(specs) -> list[str]:
    """The built-ins among ``specs`` compiled on their own (``strategies.seat_call``) whose
    seat function is not in numba's cache yet."""
    import glob

    import simulator
    from strategies.dispatch import in_switch
    from strategies.registry import StrategyError, parse_spec
    names = []
    for spec in dict.fromkeys(specs):
        try:
            s, _ = parse_spec(spec)
        except StrategyError:               # checked (one line) where the spec is used
            continue
        if s.plugin or in_switch(s) or s.name in names:
            continue
        if not glob.glob(os.path.join(simulator.CACHE_DIR, "**",
                                      f"strategy_seats.seat_{s.name}-*.nbi"), recursive=True):
            names.append(s.name)
    return names


_CHILD = """
import sys
sys.path.insert(0, sys.argv.pop(1))     # this process's simulator, not one in the working folder
from survive_sim.cli.progress import compile_progress
from play.settings import Settings
from play.simulate import run_records
compile_progress()
run_records(Settings(players=4), 0, 0, 1)
for name in sys.argv[1:]:
    run_records(Settings(players=4, strategies=(name,)), 0, 0, 1)
"""


def compile_apart(names: list[str], say=None) -> bool:
    """Compile the engine and the seat functions of built-ins ``names`` into numba's cache in
    a child process, passing its compile lines to ``say``. True when it succeeded; otherwise
    the caller compiles in its own process, as before."""
    import subprocess

    import simulator
    root = os.path.dirname(os.path.dirname(os.path.abspath(simulator.__file__)))
    try:
        child = subprocess.Popen([sys.executable, "-c", _CHILD, root, *names],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    except OSError:
        return False
    for line in child.stderr:
        if line.startswith("survive-sim: compil") and say is not None:
            say(line.rstrip("\n"))
    return child.wait() == 0


class CompileProgress:
    """Counts numba's compiles from its ``numba:compile`` events (one per function and
    signature actually compiled, none for a cache load) and, while a compile runs, writes a
    line every ``every`` seconds and one at its end: plain lines, on a terminal as in a log
    (through ``sink`` when a ``Progress`` shows a bar: ``load_engine`` sets it).

    numba calls ``on_start``/``on_end`` on the compiling thread; ``tick`` is called by a
    daemon thread (``compile_progress``), or by a test with its own clock."""

    def __init__(self, every: float = 15.0, clock=time.monotonic, stream=None):
        self.every, self.clock, self.stream = every, clock, stream
        self.quiet = False
        self.sink = None
        self.depth = self.done = 0
        self.start = self.last = 0.0
        self.what = ""
        self.printed = False
        self.lock = threading.Lock()

    def on_start(self, event) -> None:
        with self.lock:
            if self.depth == 0:
                self.start = self.last = self.clock()
                self.done, self.printed = 0, False
                self.what = _compiled_what(getattr(event, "data", None))
            self.depth += 1

    def on_end(self, event) -> None:
        with self.lock:
            self.depth -= 1
            self.done += 1
            if self.depth == 0 and self.printed:
                self._line(f"compiled {self.what}: {self.done:,} functions in "
                           f"{self.clock() - self.start:.0f} s")

    def tick(self, now: float | None = None) -> None:
        with self.lock:
            now = self.clock() if now is None else now
            if self.depth > 0 and now - self.last >= self.every:
                self.last = now
                self.printed = True
                self._line(f"compiling {self.what}: {self.done:,} functions done, "
                           f"{now - self.start:.0f} s")

    def _line(self, text: str) -> None:
        if self.quiet:
            return
        if self.sink is not None:
            self.sink(f"survive-sim: {text}")
        else:
            print(f"survive-sim: {text}", file=self.stream or sys.stderr, flush=True)


def _compiled_what(data) -> str:
    """What the outermost compile builds: the engine, a strategy's seat function, or a name."""
    fn = getattr((data or {}).get("dispatcher"), "py_func", None)
    name = getattr(fn, "__name__", "")
    if name == "play_games":
        return "the engine"
    if name.startswith("seat_"):
        return f"strategy {name[5:]}"
    return name or "numba code"


_REPORTER: list[CompileProgress] = []


def compile_progress() -> CompileProgress:
    """The process's one reporter, listening to numba and ticked by a daemon thread."""
    if not _REPORTER:
        from numba.core import event

        reporter = CompileProgress()

        class _Listener(event.Listener):
            def on_start(self, ev):
                reporter.on_start(ev)

            def on_end(self, ev):
                reporter.on_end(ev)

        event.register("numba:compile", _Listener())

        def run():
            while True:
                time.sleep(1.0)
                reporter.tick()
        threading.Thread(target=run, name="compile-progress", daemon=True).start()
        _REPORTER.append(reporter)
    return _REPORTER[0]


def threads_used(threads: int | None) -> int:
    import numba
    return min(threads or numba.config.NUMBA_NUM_THREADS, numba.config.NUMBA_NUM_THREADS)

"""``survive-sim``: the command line (simulate, replay, referee, summary, bench).

Heavy modules (numpy, pandas, the compiled engine) are imported inside the commands, so
``survive-sim --help`` and input errors answer at once. Bad input of any kind ends with one line
on stderr that names the problem and the accepted values, exit code 2, no traceback, and no
output file: every check runs before the first game is played, and files are written to a
temporary name in the target directory and renamed into place only when complete.
"""
from __future__ import annotations

import contextlib
import os
import sys
import tempfile
import time

import click

from strategies import STRATEGY_CODES

OUT_FORMATS = {".parquet": "parquet", ".csv": "csv"}
SEED_MAX = 2**63 - 1
STRATEGY_HELP = ", ".join(STRATEGY_CODES)


# ---------------------------------------------------------------------------- errors
def _one_line(text: str) -> str:
    return " ".join(str(text).split())


class OneLineErrors(click.Group):
    """A click group whose usage errors are a single line on stderr (exit code 2).

    click's own report adds a usage line and a hint; here the message alone, prefixed with the
    command that failed, so scripts and people see exactly one line naming the problem."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        prog_name = prog_name or "survive-sim"
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **extra)
        try:
            rv = super().main(args, prog_name, complete_var, False, **extra)
        except click.exceptions.Abort:
            click.echo("survive-sim: aborted", err=True)
            sys.exit(1)
        except click.ClickException as e:
            ctx = getattr(e, "ctx", None)
            where = ctx.command_path if ctx is not None else prog_name
            click.echo(f"{where}: error: {_one_line(e.format_message())}", err=True)
            sys.exit(e.exit_code)
        sys.exit(rv if isinstance(rv, int) else 0)


def _bad(message: str, param: str | None = None):
    """Raise click's usage error (exit 2) for ``param`` (an option name) or the command."""
    if param:
        raise click.BadParameter(message, param_hint=f"'{param}'")
    raise click.UsageError(message)


# ---------------------------------------------------------------------------- input checks
def _settings(players: int, strategies: str, rules: dict):
    """Validated ``Settings``; ``SettingsError`` becomes a usage error."""
    from .settings import Settings, SettingsError
    names = tuple(s.strip() for s in strategies.split(",")) if strategies.strip() else ()
    for name in names:                       # name the bad strategy before counting them
        if name not in STRATEGY_CODES:
            _bad(f"unknown strategy {name!r}; accepted: {STRATEGY_HELP}", "--strategies")
    try:
        return Settings(players=players, strategies=names, **rules)
    except SettingsError as e:
        _bad(str(e))


def _check_writable(path: str, param: str) -> None:
    """The file ``path`` can be created: its directory exists and accepts a new file."""
    if os.path.isdir(path):
        _bad(f"{path} is a directory; give a file name", param)
    directory = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(directory):
        _bad(f"directory {directory} does not exist; create it or choose an existing one", param)
    try:
        fd, probe = tempfile.mkstemp(dir=directory, prefix=".survive-sim-probe-")
        os.close(fd)
        os.unlink(probe)
    except OSError as e:
        _bad(f"directory {directory} is not writable ({e.strerror or e}); "
             f"choose a writable directory", param)


def _out_format(path: str, param: str | None = "--out") -> str:
    ext = os.path.splitext(path)[1].lower()
    if ext not in OUT_FORMATS:
        _bad(f"unknown table extension {ext or '(none)'!r} in {path}; accepted: "
             f"{', '.join(OUT_FORMATS)}", param)
    return OUT_FORMATS[ext]


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def atomic_write(path: str, write) -> None:
    """``write(tmp_path)`` to a temporary file beside ``path``, then rename it to ``path``.

    On any failure (including Ctrl-C) the temporary file is removed and ``path`` is untouched."""
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{os.path.basename(path)}.",
                               suffix=".tmp")
    os.close(fd)
    try:
        write(tmp)
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def write_table(df, path: str) -> None:
    fmt = _out_format(path)
    if fmt == "parquet":
        atomic_write(path, lambda tmp: df.to_parquet(tmp, index=False))
    else:
        atomic_write(path, lambda tmp: df.to_csv(tmp, index=False))


def read_table(path: str):
    import pandas as pd
    fmt = _out_format(path, None)
    return pd.read_parquet(path) if fmt == "parquet" else pd.read_csv(path)


def _compile_note(entry: str, quiet: bool) -> None:
    """Say so on stderr when the engine is about to compile (no cache for these sources)."""
    if quiet:
        return
    import glob

    import simulator
    if not glob.glob(os.path.join(simulator.CACHE_DIR, "**", f"engine.{entry}-*.nbi"),
                     recursive=True):
        click.echo(f"survive-sim: compiling the engine for these sources (a few minutes, once; "
                   f"cached in {simulator.CACHE_DIR})", err=True)


def _threads_used(threads: int | None) -> int:
    import numba
    return min(threads or numba.config.NUMBA_NUM_THREADS, numba.config.NUMBA_NUM_THREADS)


# ---------------------------------------------------------------------------- commands
@click.group(cls=OneLineErrors, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="survive-sim", prog_name="survive-sim")
def main():
    """Balance simulator for Survive: Escape from Atlantis! (2-6 players).

    Game i of a run is a pure function of (seed, i, settings): any game of a results table can be
    replayed move by move with `survive-sim replay`.
    """


players_option = click.option(
    "--players", type=click.IntRange(2, 6), default=4, show_default=True,
    help="Number of players (2-6). 2 players sit as 4 seats A,B,A,B.")
strategies_option = click.option(
    "--strategies", default="random", show_default=True, metavar="NAMES",
    help=f"One strategy for every seat, or a comma-separated name per seat "
         f"(4 seats for 2 players). Accepted: {STRATEGY_HELP}.")


tiebreak_option = click.option(
    "--tiebreak", type=click.Choice(["shared", "chain"]), default=None,
    help="How ties are counted (B7.3, X1.6): shared win, or the 5-6 player chain. "
         "[default: chain for 5-6 players, shared for 2-4]")


def rule_options(f):
    """The variant flags of RULES.md (X1.5, B7.3/X1.6, R1, R2/R21, R10), shared by simulate
    and replay."""
    f = tiebreak_option(f)
    f = click.option("--squid-only", is_flag=True,
                     help="X7.6 (with --squid): giant squid replace the whales.")(f)
    f = click.option("--squid", is_flag=True,
                     help="X7: the Giant Squid mini-expansion.")(f)
    f = click.option("--dolphins", is_flag=True,
                     help="X5: Dolphins & Dive Dice (the same as --challenge 5).")(f)
    f = click.option("--challenge", "challenges", default="", metavar="LIST",
                     help="Challenge rules in force, comma-separated (X2-X6): 1 Densely "
                          "Populated, 2 Leave No One Behind, 3 Everyone is Equal, 4 Atlantis "
                          "is Gone, 5 Dolphins & Dive Dice, 6 Overpopulated (5-6 players). "
                          "Default: none.")(f)
    f = click.option("--boats", default="rules", show_default=True, metavar="LIST",
                     help="Boats per seat (X1.5): `rules` (2 each for 2-4 players, 1,1,2,2,2 "
                          "for 5, 1,1,1,1,2,2 for 6) or one number 0-3 per seat, at most 12 "
                          "in all, e.g. 2,2,2,2,2.")(f)
    f = click.option("--max-turns", type=click.IntRange(min=1), default=400, show_default=True,
                     help="R10: turn cap (seat-turns); capped games end as `turn_cap`.")(f)
    f = click.option("--creatures-must-move", is_flag=True,
                     help="R2/R21: a die-moved creature may not stay put when it can move.")(f)
    f = click.option("--lagoon-is-sea/--lagoon-not-sea", default=True, show_default=True,
                     help="R1: whether the lagoon counts as sea when choosing the tile to sink.")(f)
    return f


def _boats(value: str) -> tuple[int, ...]:
    """``rules`` -> () (the rules' allocation); else one integer per seat."""
    if value.strip() == "rules":
        return ()
    try:
        return tuple(int(part) for part in value.split(","))
    except ValueError:
        _bad(f"boats must be `rules` or comma-separated numbers 0-3 (one per seat, at most 12 "
             f"in all), got {value!r}", "--boats")


def _challenges(value: str) -> tuple[int, ...]:
    from .settings import CHALLENGES
    out = []
    for part in filter(None, (p.strip() for p in value.split(","))):
        if not part.isdigit() or int(part) not in CHALLENGES:
            _bad(f"unknown challenge {part!r}; accepted: {', '.join(map(str, CHALLENGES))} "
                 f"(comma-separated)", "--challenge")
        out.append(int(part))
    return tuple(out)


def _rules(lagoon_is_sea, creatures_must_move, max_turns, boats, tiebreak, challenges,
           dolphins=False, squid=False, squid_only=False) -> dict:
    return {"lagoon_is_sea": lagoon_is_sea, "creatures_must_move": creatures_must_move,
            "max_turns": max_turns, "boats": _boats(boats), "tiebreak": tiebreak or "",
            "challenges": _challenges(challenges), "dolphins": dolphins, "squid": squid,
            "squid_only": squid_only}


def _expansions(settings) -> str:
    """', squid' / ', squid only' for the run header (dolphins show as challenge 5)."""
    return ", squid only" if settings.squid_only else (", squid" if settings.squid else "")


seed_option = click.option(
    "--seed", type=click.IntRange(0, SEED_MAX), default=0, show_default=True,
    help="Root seed (0 to 2**63-1).")


@main.command(short_help="Play many games; print the summary, save the table.")
@players_option
@click.option("--games", type=click.IntRange(min=1), required=True,
              help="Number of games to play (at least 1).")
@seed_option
@strategies_option
@click.option("--out", type=str, default=None, metavar="FILE",
              help="Write the per-game table here: .parquet or .csv (default: summary only).")
@click.option("--first", type=click.IntRange(min=0), default=0, show_default=True,
              help="Index of the first game (to extend a run: games first..first+games-1).")
@click.option("--threads", type=click.IntRange(min=1), default=None,
              help="Worker threads (default: all). Results do not depend on it.")
@click.option("--chunk", type=click.IntRange(min=1), default=10_000, show_default=True,
              help="Games per compiled batch (progress granularity). Results do not depend on it.")
@click.option("--no-progress", is_flag=True, help="No progress bar or notes on stderr.")
@rule_options
def simulate(players, games, seed, strategies, out, first, threads, chunk, no_progress,
             lagoon_is_sea, creatures_must_move, max_turns, boats, tiebreak, challenges,
             dolphins, squid, squid_only):
    """Play GAMES games and print the summary; optionally save the per-game table."""
    settings = _settings(players, strategies,
                         _rules(lagoon_is_sea, creatures_must_move, max_turns, boats, tiebreak,
                                challenges, dolphins, squid, squid_only))
    if out is not None:
        _out_format(out)
        _check_writable(out, "--out")

    from tqdm import tqdm

    from reports.summary import format_summary, summary_table

    from .simulate import numba_threads, run_records
    from .simulate import simulate as run

    _compile_note("run_games", no_progress)
    try:
        with numba_threads(threads):
            run_records(settings, seed, first, 1)          # load or compile, start the threads
        with tqdm(total=games, unit="game", unit_scale=True, file=sys.stderr,
                  disable=no_progress, desc="simulate", dynamic_ncols=True) as bar:
            t0 = time.perf_counter()
            df = run(settings, games, seed, first=first, threads=threads, chunk=chunk,
                     progress=bar.update)
            elapsed = time.perf_counter() - t0
    except RuntimeError as e:                                # engine error: name the game
        raise click.ClickException(_one_line(e))
    if out is not None:
        try:
            write_table(df, out)
        except OSError as e:
            raise click.ClickException(f"could not write {out}: {e.strerror or e}")

    click.echo(f"{players} players ({settings.seats} seats), strategies "
               f"{','.join(settings.strategies)}, boats {','.join(map(str, settings.boats))}, "
               f"challenges {','.join(map(str, settings.challenges)) or 'none'}"
               f"{_expansions(settings)}, seed {seed}, games {first}..{first + games - 1}")
    click.echo(format_summary(summary_table(df)))
    click.echo(f"speed: {games} games in {elapsed:.2f} s = {games / max(elapsed, 1e-9):,.0f} "
               f"games/s on {_threads_used(threads)} thread(s)")
    if out is not None:
        click.echo(f"wrote {out} ({len(df)} games x {df.shape[1]} columns)")


@main.command(short_help="Print one game turn by turn (and its JSON log).")
@seed_option
@click.option("--game", type=click.IntRange(min=0), required=True,
              help="Index of the game within the seed's run (0-based, the table's `game`).")
@players_option
@strategies_option
@click.option("--json", "json_path", type=str, default=None, metavar="FILE",
              help="Also write the machine-readable log (docs/replay-log.md) to FILE.")
@click.option("--check", is_flag=True,
              help="Re-check the log with the independent referee (exit 1 on a discrepancy).")
@rule_options
def replay(seed, game, players, strategies, json_path, check, lagoon_is_sea,
           creatures_must_move, max_turns, boats, tiebreak, challenges, dolphins, squid,
           squid_only):
    """Replay one game and print it turn by turn.

    Use the same --players, --strategies and rule flags as the run that produced the game."""
    import json

    settings = _settings(players, strategies,
                         _rules(lagoon_is_sea, creatures_must_move, max_turns, boats, tiebreak,
                                challenges, dolphins, squid, squid_only))
    if json_path is not None:
        _check_writable(json_path, "--json")

    from .replay import format_log, game_log

    _compile_note("run_games", False)          # replay_game itself compiles in seconds
    try:
        log = game_log(settings, seed, game)
    except RuntimeError as e:
        raise click.ClickException(_one_line(e))
    click.echo(format_log(log))
    text = json.dumps(log, separators=(",", ":"))
    if json_path is not None:
        def dump(tmp):
            with open(tmp, "w", encoding="utf-8") as f:
                f.write(text)
                f.write("\n")
        try:
            atomic_write(json_path, dump)
        except OSError as e:
            raise click.ClickException(f"could not write {json_path}: {e.strerror or e}")
        click.echo(f"wrote {json_path}")
    if check:
        from .referee import check as referee_check
        found = referee_check(json.loads(text))      # exactly what the file holds
        _referee_report(found)


def _referee_report(found) -> None:
    if found is None:
        click.echo("referee: OK")
        return
    click.echo(f"referee: DISCREPANCY {found}")
    sys.exit(1)


@main.command(short_help="Check a saved JSON replay log against the rules.")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, readable=True))
def referee(file):
    """Check a saved replay log (JSON) against the rules: prints "referee: OK" or the first
    discrepancy (exit 1)."""
    import json
    try:
        with open(file, encoding="utf-8") as f:
            log = json.load(f)
    except (ValueError, UnicodeDecodeError) as e:
        _bad(f"{file} is not a JSON replay log ({_one_line(e)}); expected the output of "
             f"`survive-sim replay --json FILE`")
    from .referee import check as referee_check
    _referee_report(referee_check(log))


@main.command(short_help="Print the summary of a saved results table.")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, readable=True))
@tiebreak_option
def summary(file, tiebreak):
    """Print the summary of a saved per-game table (.parquet or .csv), counting wins under
    --tiebreak (default: the table's own rule)."""
    from reports.summary import format_summary, summary_table
    _out_format(file, None)
    try:
        df = read_table(file)
        table = summary_table(df, tiebreak)
    except (ValueError, KeyError, OSError) as e:
        _bad(f"{file} is not a survive-sim results table ({_one_line(e)})")
    click.echo(format_summary(table))


def _machine() -> str:
    import platform

    import numba
    model, cores = "unknown CPU", set()
    try:
        phys = core = None
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                key, _, value = line.partition(":")
                key, value = key.strip(), value.strip()
                if key == "model name" and model == "unknown CPU":
                    model = value
                elif key == "physical id":
                    phys = value
                elif key == "core id":
                    core = value
                    cores.add((phys, core))
    except OSError:
        model = platform.processor() or model
    logical = os.cpu_count() or 1
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = logical
    physical = f"{len(cores)} physical cores, " if cores else ""
    return (f"machine: {model}; {physical}{logical} logical CPUs ({usable} usable); "
            f"numba {numba.__version__} with {numba.config.NUMBA_NUM_THREADS} threads; "
            f"Python {platform.python_version()}; {platform.system()} {platform.machine()}")


def _parse_players(value: str) -> list[int]:
    out = []
    for part in value.split(","):
        part = part.strip()
        if part not in ("2", "3", "4", "5", "6"):
            _bad(f"player counts must be a comma-separated list of 2, 3, 4, 5, 6; got {part!r}",
                 "--players")
        out.append(int(part))
    return out


@main.command(short_help="Measure games per second (1 thread / all threads).")
@click.option("--games", type=click.IntRange(min=1), default=None,
              help="Games per run (default: about --seconds of play per run).")
@click.option("--seconds", type=click.FloatRange(min=0.1, max=600), default=2.0,
              show_default=True, help="Target time per run when --games is not given.")
@click.option("--repeat", type=click.IntRange(min=1, max=100), default=3, show_default=True,
              help="Runs per cell; the best is reported (other load only ever slows a run).")
@click.option("--players", "players_list", default="2,3,4,5,6", show_default=True,
              metavar="LIST", help="Player counts to measure (comma-separated, each 2-6).")
@click.option("--challenge", "challenges", default="", metavar="LIST",
              help="Challenges in force while timing (as for simulate; 6 only with 5-6 "
                   "players). Default: none (the base game).")
@click.option("--dolphins", is_flag=True, help="Time with X5 Dolphins & Dive Dice.")
@click.option("--squid", is_flag=True, help="Time with X7 the Giant Squid.")
@click.option("--squid-only", is_flag=True, help="X7.6: squid instead of whales (with --squid).")
@seed_option
def bench(games, seconds, repeat, players_list, challenges, dolphins, squid, squid_only, seed):
    """Games per second per player count, for `random` and `greedy` in every seat, with one
    thread and with all threads. Each cell is the best of --repeat timed runs (as timeit
    reports), with the slowest run shown too: on a shared machine the spread is the noise."""
    counts = _parse_players(players_list)
    chosen = _challenges(challenges)
    extra = {"challenges": chosen, "dolphins": dolphins, "squid": squid,
             "squid_only": squid_only}
    runs = {(p, s): _settings(p, s, extra)                            # bad input: exit 2
            for p in counts for s in ("random", "greedy")}
    import numba

    from .settings import Settings
    from .simulate import numba_threads, run_records
    from .simulate import simulate as run
    all_threads = numba.config.NUMBA_NUM_THREADS
    click.echo(_machine())
    _compile_note("run_games", False)
    for n in (1, all_threads):                                # warm up: load/compile, threads
        with numba_threads(n):
            run_records(Settings(players=4), seed, 0, 2 * n)
    mode = f"{games} games per run" if games else f"about {seconds:g} s of games per run"
    click.echo(f"games per second (simulate(), seed {seed}, {mode}, best of {repeat} runs "
               f"[slowest]; n = games per run; challenges "
               f"{','.join(map(str, runs[counts[0], 'random'].challenges)) or 'none'}"
               f"{_expansions(runs[counts[0], 'random'])})")
    head = (f"{'players':>7}  {'strategy':<8}  {'1 thread':>18}  {'n':>7}  "
            f"{f'{all_threads} threads':>18}  {'n':>7}  {'speed-up':>8}")
    click.echo(head)
    for players in counts:
        for strategy in ("random", "greedy"):
            settings = runs[players, strategy]
            cells = []
            for threads in (1, all_threads):
                first = 1_000_000 * (1 + len(cells))
                with numba_threads(threads):
                    n = games
                    if n is None:                             # size the runs from a probe
                        probe = 32 * threads
                        t0 = time.perf_counter()
                        run_records(settings, seed, first, probe)
                        rate = probe / max(time.perf_counter() - t0, 1e-9)
                        n = max(probe, int(rate * seconds))
                    rates = []
                    for _ in range(repeat):                   # the same games each run
                        t0 = time.perf_counter()
                        run(settings, n, seed, first=first, threads=threads)
                        rates.append(n / max(time.perf_counter() - t0, 1e-9))
                    cells.append((n, max(rates), min(rates)))
            (n1, r1, s1), (nn, rn, sn) = cells
            click.echo(f"{players:>7}  {strategy:<8}  {r1:>9,.0f} {f'[{s1:,.0f}]':>8}  {n1:>7}  "
                       f"{rn:>9,.0f} {f'[{sn:,.0f}]':>8}  {nn:>7}  {rn / r1:>7.2f}x")


if __name__ == "__main__":
    main()

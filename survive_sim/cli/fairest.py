"""``survive-sim fairest``: the fairest boat allocation -- a race over the per-seat boat lists
for each player count and style, the best few confirmed on fresh games, the report and the
conclusions (``survive_sim.fair``; docs/fairest.md). ``survive-sim study fair-boats`` plays the
shipped search through ``play`` below."""
from __future__ import annotations

import os

import click

from .group import main
from .options import FloatRange, IntRange, INDEX_MAX, bad, one_line, usage_error

UNIT = FloatRange(0, 0.5, min_open=True, max_open=True)


def play(source, out: str | None, values: dict, threads, force_new: bool, no_progress: bool,
         title: str) -> None:
    """Play the search ``source`` with ``values`` into ``out``, write its report, print the
    conclusions and the verdicts."""
    from .files import check_folder_writable
    if out is not None:                              # before the imports and the engine
        check_folder_writable(out, "--out")
    from experiments.sweeps.spec import SpecError
    from survive_sim.fair import fair_spec, fairest, search_names
    try:
        spec = fair_spec(source, **values)
    except (SpecError, TypeError) as e:
        bad(one_line(e))
    if out is None:
        out = os.path.join("studies", spec.name)
        check_folder_writable(out, "--out")
    from play.settings import Settings

    from .progress import Progress, compile_note, load_engine

    compile_note("run_games", no_progress)

    def started(sp):
        names = search_names(sp.styles)
        load_engine(bar, Settings(players=sp.players[0], strategies=(names[0],)), threads,
                    names)
    try:
        with Progress(title=title, quiet=no_progress) as bar:
            result = fairest(spec, out, threads=threads, force_new=force_new, watch=bar,
                             started=started, parents=True)
            bar.begin("writing the report")
            page = result.report()
    except RuntimeError as e:                         # an engine error names its game
        raise click.ClickException(one_line(e))
    except ValueError as e:                           # SearchError: the folder, one line
        usage_error(e)
    except OSError as e:
        raise click.ClickException(f"could not write {out}: {e.strerror or e}")
    s = result.search
    click.echo(f"search {spec.name}: {s.games_played:,} games played in "
               f"{s.seconds:,.0f} s" + (f", {s.games_reused:,} more counted under another "
                                       f"bonus on games already played (komi-blind styles)"
                                       if s.games_reused else "")
               + (f", {s.games_read_back:,} read back from its folder (an earlier run's)"
                  if s.games_read_back else ""))
    click.echo(f"report: {page} (also index.md; fairest.csv, confirmation.csv and "
               f"conclusions.csv in {out})")
    click.echo(conclusions_text(result.conclusions))


def conclusions_text(frame) -> str:
    """The conclusions, one line per player count and style."""
    lines = ["conclusions (fair: every seat within 1/N ± tolerance on fresh games):"]
    for r in frame.itertuples():
        lines.append(f"  {r.players} players, {r.style}: {r.conclusion}"
                     + (f" (the race kept {r.kept} of {r.searched}; its fairest point "
                        f"{r.fairest}: largest seat gap {100 * r.fairest_measure:.2f} pp "
                        f"[{100 * r.fairest_low:.2f}, {100 * r.fairest_high:.2f}], "
                        f"n = {r.fairest_n:,})" if r.fairest else ""))
    return "\n".join(lines)


@main.command(short_help="Search the fairest boat allocation, confirmed on fresh games.")
@click.option("--spec", "source", default=None, metavar="FILE",
              help="A search's study file (kind = \"fairest\") or a shipped one's name "
                   "(fair-boats); the options below replace its values.")
@click.option("--players", default=None, metavar="LIST",
              help="Player counts, comma-separated (default 5,6).")
@click.option("--styles", default=None, metavar="NAMES",
              help="Styles of play, comma-separated: a strategy name is its self-play, "
                   "several joined with + a mixed table in every rotation "
                   "(greedy,careful,greedy+careful+racer; default greedy).")
@click.option("--space", default=None, metavar="SPACE",
              help="Boat lists: monotone (no seat fewer boats than the seat before; the "
                   "default) or all (every list of 0-3 per seat, at most 12 in all); rules, "
                   "flat and reversed always join. Or a space of rules (RULES.md C1, C2): "
                   "boats=rules|monotone|all,komi=none|K (every rising bonus vector of 0 to K "
                   "points in halves),order=forward|all, e.g. boats=rules,komi=1,order=all.")
@click.option("--tolerance", type=UNIT, default=None,
              help="Fair: every seat's win share within 1/N +- this (default 0.01).")
@click.option("--alpha", type=UNIT, default=None,
              help="The race drops the fairest with at most this chance (default 0.05); "
                   "the confirmation errs at most alpha/2.")
@click.option("--screen", type=IntRange(2), default=None,
              help="Games per allocation in the race's first round (default 1000), doubled "
                   "each round.")
@click.option("--max-games", type=IntRange(2), default=None,
              help="The most games per allocation in a race (default 32000).")
@click.option("--budget", type=IntRange(1), default=None,
              help="The most engine games of one race (a player count and style).")
@click.option("--confirm", type=IntRange(1, 1000), default=None,
              help="The fairest allocations of each style confirmed (default 3).")
@click.option("--confirm-games", type=IntRange(2), default=None,
              help="Fresh games per allocation and style in the confirmation (default 20000).")
@click.option("--confirm-all", is_flag=True, default=None,
              help="Confirm, in each style, every allocation its race has not shown unfair "
                   "(instead of each style's --confirm fairest): then the search can show "
                   "that no allocation of the space is fair.")
@click.option("--settle", type=IntRange(2), default=None, metavar="GAMES",
              help="Play the confirmation in rounds, doubling from --confirm-games up to "
                   "GAMES per allocation, judged with anytime-valid intervals, until every "
                   "allocation confirmed is fair or unfair.")
@click.option("--seed", type=IntRange(0, INDEX_MAX), default=None, help="Root seed.")
@click.option("--out", default=None, metavar="DIR",
              help="The search's folder (default studies/NAME): its state, tables and "
                   "report/. Run the same command again to resume it.")
@click.option("--threads", type=IntRange(min=1), default=None,
              help="Engine threads (default: all). Results do not depend on it.")
@click.option("--plan", is_flag=True,
              help="Print what the search will play and cost on this machine, play nothing.")
@click.option("--force-new", is_flag=True,
              help="Discard the state of another search (or engine) in --out and start over.")
@click.option("--no-progress", is_flag=True, help="No progress bar or lines on stderr.")
def fairest(source, players, styles, space, tolerance, alpha, screen, max_games, budget,
            confirm, confirm_games, confirm_all, settle, seed, out, threads, plan, force_new,
            no_progress):
    """Search the boat allocations for the fairest: for each player count and style a race on
    common games drops the allocations surely less fair than another (the fairest is dropped
    with at most --alpha's chance), then the best few, and the rules' boats, are played on
    fresh games in every style and each seat is judged against 1/N +- --tolerance. Writes
    fairest.csv, confirmation.csv, conclusions.csv and report/ into --out."""
    values = {"space": space, "tolerance": tolerance, "alpha": alpha, "screen": screen,
              "max_games": max_games, "budget": budget, "confirm": confirm,
              "confirm_games": confirm_games, "confirm_all": confirm_all, "settle": settle,
              "seed": seed}
    if players is not None:
        parts = [p.strip() for p in players.split(",")]
        if not all(p in ("2", "3", "4", "5", "6") for p in parts):
            bad(f"player counts must be a comma-separated list of 2, 3, 4, 5, 6; got "
                f"{players!r}", "--players")
        values["players"] = [int(p) for p in parts]
    if styles is not None:
        names = [s.strip() for s in styles.split(",") if s.strip()]
        if not names:
            bad("give at least one style, e.g. greedy or greedy+careful+racer", "--styles")
        values["styles"] = [n if "+" not in n else {"rotate": [x.strip() for x in
                                                               n.split("+")]} for n in names]
    values = {k: v for k, v in values.items() if v is not None}
    if source is not None and not source.strip():
        bad("give a study file or a shipped search's name", "--spec")
    if plan:
        from experiments.sweeps.spec import SpecError
        from survive_sim.fair import fairest_plan
        try:
            click.echo(fairest_plan(source, threads=threads, **values))
        except (SpecError, TypeError) as e:
            bad(one_line(e))
        return
    if out is not None and os.path.exists(out) and not os.path.isdir(out):
        bad(f"{out} is a file; --out needs a folder", "--out")
    play(source, out, values, threads, force_new, no_progress, "fairest")

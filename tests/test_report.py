"""The report of a run folder (reports/report.py, `survive-sim report`, `survive-sim study`), end
to end on a small sweep: every chart file is a valid PNG and SVG, every image and link of
index.html and index.md resolves, the tables behind the charts and the verdicts match a recount
from the run's games, a partial run says so, and bad input is one line with exit code 2."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pandas as pd
import pytest
from support.cli_harness import invoke
from support.run_table import load_run

from experiments.sweeps import spec, sweep
from experiments.tables import stats
from experiments.store.runs import RunFolder
from reports.report import _sample_key, build_report

SPEC = {"name": "tiny", "description": "a small study", "seed": 8, "games": 240, "chunk": 120,
        "grid": {"players": [4, 5], "boats": ["rules", "flat"], "tiebreak": ["chain", "shared"],
                 "challenges": [[], [2]], "strategies": ["random"]},
        "claims": {"S1": {}, "S1b": {"tolerance": 0.05}, "T1": {}}}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("report")
    sweep.run_sweep(spec.build(SPEC), root / "run")
    result = build_report(root / "run", root / "report")
    return root, result


@pytest.mark.slow
def test_every_chart_is_a_valid_png_and_svg_with_its_table(built):
    root, result = built
    figures = root / "report" / "figures"
    pngs = sorted(figures.glob("*.png"))
    assert len(pngs) == result.figures >= 10
    for png in pngs:
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        from PIL import Image
        with Image.open(png) as im:
            assert im.size[0] > 300 and im.size[1] > 200
        svg = png.with_suffix(".svg")
        assert ET.parse(svg).getroot().tag.endswith("svg")
        assert (root / "report" / "tables" / f"{png.stem}.csv").exists()


def test_chart_files_are_named_by_what_they_show(built):
    root, _ = built
    names = {p.stem for p in (root / "report" / "figures").glob("*.png")}
    for want in ("win_share_random_base_chain", "win_share_random_base_shared",
                 "win_share_random_challenge-2-leave-no-one-behind_chain",
                 "score_rescued_random_base", "tie_rate_and_deciding_steps",
                 "tie_transitions_p5_random", "game_length_p4_random",
                 "end_reasons_p5_random", "score_distribution_p4-boats-rules-base-tb-chain-random"):
        assert want in names, sorted(names)
    assert not [n for n in names if n.rsplit("_", 1)[-1].isdigit()]     # no "_1", "_2"


def _links(text: str, pattern: str) -> list[str]:
    return [m for m in re.findall(pattern, text) if not m.startswith("#")]


def test_every_image_and_link_resolves(built):
    root, _ = built
    page = root / "report"
    html = (page / "index.html").read_text()
    md = (page / "index.md").read_text()
    refs = _links(html, r'(?:src|href)="([^"]+)"')
    assert refs and not [r for r in refs if r.startswith(("http:", "https:", "//"))]
    for ref in refs + _links(md, r"\]\(([^)]+)\)"):
        assert (page / ref.split("#")[0]).exists(), ref      # a viewer page's #event=N
    ids = set(re.findall(r'id="([^"]+)"', html))
    for anchor in re.findall(r'href="#([^"]+)"', html):
        assert anchor in ids, anchor


@pytest.mark.slow
def test_the_tables_behind_the_charts_match_a_recount(built):
    root, _ = built
    df, _ = load_run(root / "run")
    tidy = stats.balance_stats(df)
    tables = root / "report" / "tables"
    shares = pd.read_csv(tables / "win_share_random_base_chain.csv")
    own = tidy[tidy["metric"] == "win_share"].set_index(["setting", "seat"])
    for r in shares.itertuples():
        want = own.loc[(r.setting, r.seat)]
        assert r.value == pytest.approx(want["value"]) and r.n == want["n"]
        assert r.low == pytest.approx(want["low"]) and r.high == pytest.approx(want["high"])
    losses = pd.read_csv(tables / "losses_by_cause_p4_random.csv")
    assert len(losses) >= 2 * 5           # two variants x five causes (no squid in the run)
    for r in losses.itertuples():
        rows = df[df["setting"] == r.setting]
        total = sum(rows[f"lost_{r.part}_{s}"].astype(float) for s in range(4))
        assert r.value == pytest.approx(total.mean()) and r.n == len(rows)


def test_the_verdicts_are_the_claims_computed_from_the_games(built):
    root, result = built
    from experiments.verdicts.table import verdicts
    df, _ = load_run(root / "run")
    want = verdicts(df, SPEC["claims"])                 # in memory, the same rules
    got = pd.read_csv(root / "report" / "verdicts.csv")
    assert list(got.columns[:9]) == ["claim", "play", "scope", "verdict", "measure", "effect",
                                     "low", "high", "n"]
    assert {"looks", "interval", "settled_at", "games_needed", "family", "rule",
            "verdict_across"} <= set(got.columns) and "adjusted" not in got.columns
    assert list(got["verdict"]) == list(want["verdict"])
    assert set(got["looks"]) == {1} and set(got["interval"]) == {"95% fixed"}
    assert got["effect"].to_numpy() == pytest.approx(want["effect"].to_numpy(), nan_ok=True)
    html = (root / "report" / "index.html").read_text()
    assert html.index('<h2 id="verdicts"') < html.index('<h2 id="seat-balance"')  # first
    for cid in ("S1", "S1b", "T1"):
        assert f"<strong>{cid}</strong>" in html                         # each claim's rule


@pytest.mark.slow
def test_a_partial_run_is_labelled_partial(tmp_path):
    sweep.run_sweep(spec.build(SPEC), tmp_path / "run", stop=lambda: True)
    result = build_report(tmp_path / "run", tmp_path / "report")
    assert result.partial
    for name in ("index.html", "index.md"):
        assert "PARTIAL RUN" in (tmp_path / "report" / name).read_text()


def test_a_partial_runs_unplayed_settings_show_no_sample_game(built, tmp_path):
    """A setting with no game finished is named under "Sample games", never drawn: the run
    has not played its game (the report of a copy of the module's run, the 5-player
    settings' chunks removed)."""
    import shutil
    root, _ = built
    run = shutil.copytree(root / "run", tmp_path / "run")
    gone = {p.name.split(".c0")[0] for p in run.glob("p5-*.parquet")}
    assert len(gone) == 8
    for p in run.glob("p5-*.parquet"):
        p.unlink()
    result = build_report(run, tmp_path / "report")
    assert result.partial
    text = (tmp_path / "report" / "index.md").read_text()
    games = text.split("## Sample games", 1)[1].split("\n## ", 1)[0]
    assert f"Not shown: {len(gone)} settings with no game finished yet" in games
    assert "**p5-" not in games and "**p4-" in games


def _one_line(r, *needles):
    assert r.exit_code == 2, (r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in r.stderr, r.stderr
    for n in needles:
        assert n in lines[0], lines[0]


def test_bad_report_input_is_one_line_and_leaves_nothing(built, tmp_path):
    root, _ = built
    _one_line(invoke("report", tmp_path / "nope"), "not a run folder")
    (tmp_path / "plain").mkdir()
    _one_line(invoke("report", tmp_path / "plain"), "not a run folder")
    empty = tmp_path / "empty"
    sweep.run_sweep(spec.build({**SPEC, "games": 1}), empty, stop=lambda: True)
    for chunk in empty.glob("*.parquet"):
        chunk.unlink()
    _one_line(invoke("report", empty, "--out", tmp_path / "r1"), "no finished games")
    assert not (tmp_path / "r1").exists()
    taken = tmp_path / "taken"
    taken.mkdir()
    (taken / "mine.txt").write_text("keep me")
    _one_line(invoke("report", root / "run", "--out", taken), "taken")
    assert sorted(p.name for p in taken.iterdir()) == ["mine.txt"]
    assert not list(tmp_path.glob(".taken*"))


def test_study_lists_and_refuses_unknown_names():
    r = invoke("study", "--list")
    assert r.exit_code == 0 and {"five-six", "tiebreaks", "challenges"} <= set(
        line.split()[0] for line in r.stdout.splitlines())
    _one_line(invoke("study", "balance"), "unknown study", "five-six")


@pytest.mark.slow
def test_a_study_runs_its_sweep_and_report_and_prints_the_verdicts(tmp_path):
    out = tmp_path / "s"
    r = invoke("study", "tiebreaks", "--games", 40, "--out", out, "--no-progress")
    assert r.exit_code == 0, r.stderr
    assert (out / "report" / "index.html").exists() and (out / "report" / "verdicts.csv").exists()
    assert "verdicts" in r.stdout and "T2" in r.stdout
    md = (out / "report" / "index.md").read_text()
    assert "What changed in the verdicts" in md and "not judged" in md      # T1 at 2-4
    assert str(Path(out) / "report" / "index.html") in r.stdout
    again = invoke("study", "tiebreaks", "--games", 40, "--out", out, "--no-progress")
    assert again.exit_code == 0                       # resumes: nothing left to play


def test_the_report_shows_a_sample_game_of_every_setting(built):
    """Game 0 of each setting, replayed from the run's seed: the board after the last setup
    event and at the end, as SVG files linking to the game's viewer page at those events;
    settings that differ only in the tie-break share one game (they play the same one)."""
    import json

    from replays.draw.scene import event_text
    from play.record import game_log
    from play.settings import Settings

    root, _ = built
    report = root / "report"
    html = (report / "index.html").read_text()
    manifest = RunFolder(root / "run").read_manifest()
    points, seed = manifest["identity"]["points"], manifest["identity"]["seed"]
    keys = {}
    for p in points:
        key = json.dumps({k: v for k, v in p["settings"].items() if k != "tiebreak"},
                         sort_keys=True)
        keys.setdefault(key, []).append(p)
    assert len(keys) == len({_sample_key(p["settings"]) for p in points})
    pages = sorted((report / "games").glob("*.html"))
    assert len(pages) == len(keys) < len(points)
    assert 'id="sample-games"' in html
    for group in keys.values():
        first = group[0]
        name = re.sub(r"[^a-z0-9_-]+", "-", first["label"].lower()).strip("-")
        log = game_log(Settings.from_dict(first["settings"]), seed, 0)
        events = log["events"]
        setup = next(e["i"] for e in events if e["type"] == "turn_start") - 1
        page = (report / "games" / f"{name}.html").read_text()
        data = json.loads(re.search(r'id="game-data">(.*?)</script>', page, re.S).group(1))
        assert len(data["frames"]) == len(events)
        assert data["texts"][data["text"][-1]] == event_text(log, len(events) - 1)
        for label, at in (("setup", setup), ("end", len(events) - 1)):
            svg = report / "games" / f"{name}-{label}.svg"
            tree = ET.parse(svg).getroot()
            ids = {el.get("id") for el in tree.iter()}
            for e, loc, _ in events[at]["after"]["explorers"]:
                assert (f"ex-{e}" in ids) == (loc in ("land", "sea", "boat")), (label, e)
            assert f'href="games/{name}.html#event={at}"' in html
            assert f'src="games/{name}-{label}.svg"' in html
        for p in group:                                   # every setting is named
            assert p["label"] in html


@pytest.mark.slow
def test_a_mixed_table_reports_its_rotations_pooled(tmp_path):
    """A line-up rotated round the table is played in every rotation and reported as one
    setting: its seat table, charts and verdicts are of the pooled games."""
    mixed = {"name": "mixed", "seed": 3, "games": 60, "chunk": 60,
             "grid": {"players": [5], "boats": ["flat"], "tiebreak": ["chain"],
                      "strategies": ["greedy", {"rotate": ["greedy", "random"]}]},
             "claims": {"S1": {}}}
    sweep.run_sweep(spec.build(mixed), tmp_path / "run")
    build_report(tmp_path / "run", tmp_path / "report")
    v = pd.read_csv(tmp_path / "report" / "verdicts.csv")
    style = "mixed, every seat in turn: greedy, random"
    assert sorted(v["play"]) == ["greedy self-play", style]
    assert v.loc[v["play"] == style, "n"].item() == 60          # game indices, not rows
    page = (tmp_path / "report" / "index.md").read_text()
    assert "(all 5 rotations)" in page
    assert "greedy+random+greedy+random+greedy" not in page.replace(" (all 5 rotations)", "")
    # one sample game for the pooled rotations, one for the self-play
    assert len(list((tmp_path / "report" / "games").glob("*.html"))) == 2
    assert "(all 5 rotations)**; the game of its first rotation, seats from 0:" in page


def test_the_report_has_komi_tables_of_the_base_game(built):
    """Issue 41: each seat's win share against its own bonus and its fair bonus, for the base
    game under the rules' boats (random is komi-blind: read exactly from the stored scores);
    the tables equal ``run_komi``'s of those settings, and no other setting is read."""
    from experiments.komi.tables import run_komi
    root, _ = built
    html = (root / "report" / "index.html").read_text()
    assert "Komi tables" in html and "fair bonus" in html
    assert (root / "report" / "figures" / "komi_random.png").is_file()
    tidy = pd.read_csv(root / "report" / "tables" / "komi.csv")
    shown = set(tidy["setting"])
    assert len(shown) == 4 and all("boats_rules-base" in s for s in shown), shown
    table, fair = run_komi(root / "run", labels=shown)
    assert len(tidy) == len(table) and tidy["share"].round(12).tolist() == \
        table["share"].round(12).tolist()
    view = pd.read_csv(root / "report" / "tables" / "komi_fair.csv")
    assert len(view) == len(fair) and set(view["n"].astype(str).str.replace(",", "")) == {"240"}


def test_the_komi_section_reads_self_play_of_komi_blind_strategies_in_the_base_game():
    from reports.komi_section import shown_settings
    meta = pd.DataFrame([
        ("a", 5, "rules", "base", "", ("greedy",) * 5, "greedy"),
        ("b", 5, "flat", "base", "", ("greedy",) * 5, "greedy"),
        ("c", 5, "rules", "Challenge 3", "", ("greedy",) * 5, "greedy"),
        ("d", 5, "rules", "base", "turn cap 100", ("greedy",) * 5, "greedy"),
        ("e", 4, "rules", "base", "", ("greedy", "racer") * 2, "mixed"),
        ("f", 5, "rules", "base", "", ("search256:budget=4",) * 5, "search256:budget=4"),
        ("g", 4, "rules", "base", "", ("greedy",) * 4, "greedy"),
    ], columns=["setting", "players", "allocation", "variant", "flags", "strategies",
                "strategies_text"]).set_index("setting")
    assert shown_settings(meta) == {"greedy": ["g", "a"]}

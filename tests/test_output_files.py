"""Output files and bad log files, as a user meets them: real processes
(``python -m survive_sim.cli``), one usage line on stderr and exit 2 for bad input, and the
user's files left exactly as they were, with no temporary file behind.

The ownership rule (``experiments.store.outputs``): an existing output is replaced only when
survive-sim wrote it (its signature) or it is empty; a report folder replaces only the files
its marker lists and keeps the user's. None of these commands has a ``--force``: a file of the
user's is never overwritten, the user moves it away.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from support.cli_harness import run_process

LOG_GAME = ("--game", 1, "--max-turns", 12)        # a short (capped) game: a small log and GIF


# ---------------------------------------------------------------------------- helpers
def leftovers(folder: Path) -> list[str]:
    """Temporary names the writers use, anywhere under ``folder``."""
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*")
                  if p.name.startswith(".") and (".tmp" in p.name or ".old-" in p.name
                                                 or "probe" in p.name))


def usage_error(p, *needles):
    """Exit 2, exactly one line on stderr holding every needle, no traceback."""
    assert p.returncode == 2, (p.returncode, p.stdout, p.stderr)
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1, p.stderr
    assert "Traceback" not in p.stderr and "Traceback" not in p.stdout
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


def ok(p):
    assert p.returncode == 0, (p.stdout, p.stderr)
    assert "Traceback" not in p.stderr
    return p


def user_file(path: Path, content: bytes = b"the user's own bytes\n") -> bytes:
    path.write_bytes(content)
    return content


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and not p.is_symlink()}


def cli(tmp: Path, *args):
    return run_process(*args, cwd=tmp)


@pytest.fixture(scope="module")
def saved_log(tmp_path_factory) -> Path:
    """One real log (``replay --json``), played once for the module."""
    d = tmp_path_factory.mktemp("log")
    ok(cli(d, "replay", *LOG_GAME, "--json", "game.json"))
    return d / "game.json"


@pytest.fixture
def log(saved_log, tmp_path) -> Path:
    """A copy of the saved log in the test's own folder."""
    p = tmp_path / "game.json"
    p.write_bytes(saved_log.read_bytes())
    return p


# ---------------------------------------------------------------------------- case 1: report
@pytest.fixture(scope="module")
def run_folder(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("report")
    ok(cli(d, "sweep", "--players", 4, "--games", 20, "--out", "RUN", "--no-progress",
           "--threads", 1))
    return d / "RUN"


@pytest.mark.slow
def test_report_rerun_keeps_the_users_files(run_folder):
    d = run_folder.parent
    rep = d / "REP"
    ok(cli(d, "report", "RUN", "--out", "REP", "--no-progress", "--workers", 1))
    marker = json.loads((rep / "_report.json").read_text())
    assert "index.html" in marker["files"] and "_report.json" in marker["files"]
    mine = {"notes.txt": b"my notes\n", "figures/sketch.png": b"not a chart",
            "tables/mine.csv": b"a,b\n1,2\n", "drafts/plan.md": b"# plan\n"}
    for rel, content in mine.items():
        (rep / rel).parent.mkdir(parents=True, exist_ok=True)
        (rep / rel).write_bytes(content)
    (rep / "empty-dir").mkdir()
    os.symlink("notes.txt", rep / "link-to-notes")
    inode = os.stat(rep / "notes.txt").st_ino
    ours_before = {f for f in marker["files"]}
    ok(cli(d, "report", "RUN", "--out", "REP", "--no-progress", "--workers", 1))
    for rel, content in mine.items():
        assert (rep / rel).read_bytes() == content, rel
    assert os.stat(rep / "notes.txt").st_ino == inode           # the same file, not a copy
    assert (rep / "empty-dir").is_dir() and os.readlink(rep / "link-to-notes") == "notes.txt"
    marker = json.loads((rep / "_report.json").read_text())
    assert set(marker["files"]) == ours_before                  # the user's are not listed
    assert not set(mine) & set(marker["files"])
    assert leftovers(d) == []


def test_report_refuses_to_replace_a_users_file_it_would_write(tmp_path):
    """A user's file where the new report writes one of its own (here: an older report that
    did not list index.md) is refused after the build, with nothing changed (in-process: the
    rule is ``reports.page.write_report``'s; the command turns its ValueError into a usage
    line, as ``test_report_rerun_keeps_the_users_files`` shows)."""
    import pandas as pd

    from reports.page import MARKER, Report, Section, Table, write_report
    rep = tmp_path / "rep"
    report = Report("tiny", sections=[Section("s", tables=[Table("t", pd.DataFrame({"a": [1]}))])])
    write_report(report, rep)
    marker = json.loads((rep / MARKER).read_text())
    marker["files"].remove("index.md")
    (rep / MARKER).write_text(json.dumps(marker))
    user_file(rep / "index.md", b"my own index\n")
    before = snapshot(rep)
    with pytest.raises(ValueError) as err:
        write_report(report, rep)
    assert "index.md" in str(err.value) and "did not write" in str(err.value)
    assert "\n" not in str(err.value)
    assert snapshot(rep) == before and leftovers(tmp_path) == []
    (rep / "index.md").unlink()                                # moved away: the re-run works
    user_file(rep / "notes.txt")
    os.symlink("/nonexistent/target", rep / "dangling")        # kept as it is, too
    write_report(report, rep)
    assert (rep / "notes.txt").read_bytes() == b"the user's own bytes\n"
    assert os.readlink(rep / "dangling") == "/nonexistent/target"
    assert "notes.txt" not in json.loads((rep / MARKER).read_text())["files"]


@pytest.mark.parametrize("out, needle", [("RUN", "is the run folder"),
                                         ("RUN/sub", "inside the run folder"),
                                         (".", "holds the run folder")])
def test_report_out_is_not_the_run_folder(run_folder, out, needle):
    d = run_folder.parent
    before = snapshot(run_folder)
    p = cli(d, "report", "RUN", "--out", out, "--no-progress")
    usage_error(p, needle)
    assert snapshot(run_folder) == before and not (run_folder / "sub").exists()
    assert leftovers(d) == []


def test_report_refuses_a_folder_that_is_not_a_report(run_folder, tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    user_file(mine / "notes.txt")
    p = run_process("report", run_folder, "--out", mine, "--no-progress")
    usage_error(p, "not empty", "_report.json")
    assert snapshot(mine) == {"notes.txt": b"the user's own bytes\n"}
    user_file(tmp_path / "afile")
    usage_error(run_process("report", run_folder, "--out", tmp_path / "afile", "--no-progress"),
                "is a file")
    assert (tmp_path / "afile").read_bytes() == b"the user's own bytes\n"
    assert leftovers(tmp_path) == []


def test_report_folder_of_an_old_marker_keeps_what_is_not_its_layout(tmp_path):
    """A marker without ``files`` (older reports): the report's layout is its own."""
    from reports.page import MARKER, foreign_entries, report_files
    rep = tmp_path / "rep"
    (rep / "figures").mkdir(parents=True)
    (rep / "tables").mkdir()
    (rep / MARKER).write_text(json.dumps({"format": "survive-sim-report/1"}))
    for rel in ("index.html", "index.md", "figures/a.png", "figures/a.svg", "tables/a.csv",
                "notes.txt", "figures/Mine.PNG", "tables/x.txt"):
        (rep / rel).write_text("x")
    assert report_files(rep) == {MARKER, "index.html", "index.md", "figures/a.png",
                                 "figures/a.svg", "tables/a.csv"}
    assert foreign_entries(rep) == ["figures/Mine.PNG", "notes.txt", "tables/x.txt"]


# ---------------------------------------------------------------------------- case 2: out == in
def test_view_refuses_to_write_over_its_log(log, tmp_path):
    content = log.read_bytes()
    os.symlink("game.json", tmp_path / "sym.json")
    os.link(log, tmp_path / "hard.json")
    (tmp_path / "sub").mkdir()
    for out in ("game.json", "sym.json", "hard.json", "sub/../game.json", str(log)):
        p = cli(tmp_path, "view", "game.json", "--html", out)
        usage_error(p, "--html", "is the input LOG")
        assert log.read_bytes() == content
    assert leftovers(tmp_path) == []


def test_draw_refuses_to_write_over_its_log_or_plugin(log, tmp_path):
    content = log.read_bytes()
    (tmp_path / "game.png").write_bytes(content)              # a log under a picture's name
    usage_error(cli(tmp_path, "draw", "--log", "game.png", "--out", "game.png"),
                "is the input --log")
    assert (tmp_path / "game.png").read_bytes() == content
    plugin = tmp_path / "plug.svg"
    user_file(plugin, b"# a plug-in\n")
    usage_error(cli(tmp_path, "draw", "--game", 1, "--plugin", "plug.svg", "--out", "plug.svg"),
                "is the input --plugin")
    assert plugin.read_bytes() == b"# a plug-in\n" and leftovers(tmp_path) == []


@pytest.mark.parametrize("args, needle", [
    (("--json", "same.out", "--html", "same.out"), "is also the output --json"),
    (("--json", "a.json", "--gif", "./a.json"), "is also the output --json"),
    (("--html", "p.html", "--plugin", "p.html"), "is the input --plugin"),
])
def test_replay_refuses_one_file_for_two_roles(tmp_path, args, needle):
    if "--plugin" in args:
        user_file(tmp_path / "p.html", b"# plug-in\n")
    p = cli(tmp_path, "replay", "--game", 1, *args)
    usage_error(p, needle)
    assert sorted(os.listdir(tmp_path)) == (["p.html"] if "--plugin" in args else [])
    if "--plugin" in args:
        assert (tmp_path / "p.html").read_bytes() == b"# plug-in\n"


def test_replay_refuses_two_outputs_that_are_hard_links(tmp_path):
    user_file(tmp_path / "a.json", b"")                        # empty: replaceable alone
    os.link(tmp_path / "a.json", tmp_path / "b.html")
    usage_error(cli(tmp_path, "replay", "--game", 1, "--json", "a.json", "--html", "b.html"),
                "(the same file)")


def test_distinct_paths_helper(tmp_path):
    import click

    from survive_sim.cli.files import distinct_paths
    (tmp_path / "in.json").write_text("{}")
    distinct_paths(inputs={"LOG": tmp_path / "in.json", "--plugin": []},
                   outputs={"--html": tmp_path / "out.html", "--gif": None})
    with pytest.raises(click.BadParameter, match="is the input"):
        distinct_paths(inputs={"LOG": str(tmp_path / "in.json")},
                       outputs={"--html": str(tmp_path / "." / "in.json")})
    with pytest.raises(click.BadParameter, match="also the output"):
        distinct_paths(outputs={"--json": str(tmp_path / "x"), "--html": str(tmp_path / "x")})


# ---------------------------------------------------------------------------- case 3: ownership
def _foreign_png(path: Path) -> bytes:
    from PIL import Image
    Image.new("RGB", (4, 4), "red").save(path)
    return path.read_bytes()


FOREIGN = {"user.html": b"<html><head><title>mine</title></head></html>\n",
           "user.json": b'{"format": "my-own/1", "notes": "keep"}\n',
           "user.gif": b"GIF89a\x01\x00\x01\x00\x00\x00\x00;",
           "user.svg": b'<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"/>\n',
           "user.md": b"# notes\n"}


@pytest.mark.parametrize("command", [
    ("view", "game.json", "--html", "user.html"),
    ("draw", "--log", "game.json", "--out", "user.png"),
    ("draw", "--log", "game.json", "--out", "user.svg"),
    ("draw", "--game", 1, "--out", "user.png"),
    ("replay", "--game", 1, "--json", "user.json"),
    ("replay", "--game", 1, "--html", "user.html"),
    ("replay", "--game", 1, "--gif", "user.gif"),
    ("replay", "--game", 1, "--json", "new.json", "--gif", "user.gif"),
])
def test_a_file_not_written_by_survive_sim_is_refused(log, tmp_path, command):
    target = command[-1]
    if target.endswith(".png"):
        content = _foreign_png(tmp_path / target)
    else:
        content = user_file(tmp_path / target, FOREIGN[target])
    before = sorted(os.listdir(tmp_path))
    line = usage_error(cli(tmp_path, *command), target,
                       "exists and was not written by survive-sim")
    assert "choose another name or remove it" in line
    assert (tmp_path / target).read_bytes() == content
    assert sorted(os.listdir(tmp_path)) == before              # nothing else written either


def test_a_link_or_folder_at_an_output_is_refused(log, tmp_path):
    ok(cli(tmp_path, "view", "game.json", "--html", "ours.html"))
    os.symlink("ours.html", tmp_path / "link.html")
    content = (tmp_path / "ours.html").read_bytes()
    usage_error(cli(tmp_path, "view", "game.json", "--html", "link.html"), "symbolic link")
    assert os.readlink(tmp_path / "link.html") == "ours.html"
    assert (tmp_path / "ours.html").read_bytes() == content
    (tmp_path / "dir.png").mkdir()
    usage_error(cli(tmp_path, "draw", "--log", "game.json", "--out", "dir.png"), "directory")
    assert leftovers(tmp_path) == []


def test_our_own_files_and_empty_ones_are_replaced(log, tmp_path):
    (tmp_path / "placeholder.png").write_bytes(b"")            # mktemp's empty file
    for _ in range(2):                                         # the second run replaces
        ok(cli(tmp_path, "draw", "--log", "game.json", "--out", "pic.svg", "--event", 3))
        ok(cli(tmp_path, "draw", "--log", "game.json", "--out", "pic.png", "--scale", 0.25))
        ok(cli(tmp_path, "view", "game.json", "--html", "page.html"))
    ok(cli(tmp_path, "draw", "--log", "game.json", "--out", "placeholder.png", "--scale", 0.25))
    from experiments.store.outputs import written_by_us
    for name in ("pic.svg", "pic.png", "page.html", "placeholder.png", "game.json"):
        assert written_by_us(tmp_path / name), name
    assert leftovers(tmp_path) == []


@pytest.mark.slow
def test_replay_replaces_its_own_outputs(tmp_path):
    args = ("replay", *LOG_GAME, "--json", "g.json", "--html", "g.html", "--gif", "g.gif",
            "--frames", "turns")
    ok(cli(tmp_path, *args))
    from experiments.store.outputs import written_by_us
    first = {n: (tmp_path / n).read_bytes() for n in ("g.json", "g.html", "g.gif")}
    assert all(written_by_us(tmp_path / n) for n in first)
    ok(cli(tmp_path, *args))
    assert {n: (tmp_path / n).read_bytes() for n in first} == first   # same game, same bytes
    assert sorted(os.listdir(tmp_path)) == ["g.gif", "g.html", "g.json"]
    from PIL import Image
    with Image.open(tmp_path / "g.gif") as im:                 # the comment keeps it a GIF
        assert im.info["comment"].startswith(b"survive-sim") and im.n_frames > 2


def test_written_by_us_per_format(tmp_path):
    import pandas as pd
    import pyarrow as pa
    import pyarrow.parquet as pq

    from experiments.store import outputs as o

    def put(name, data):
        p = tmp_path / name
        p.write_bytes(data if isinstance(data, bytes) else data.encode())
        return p

    png = _foreign_png(tmp_path / "plain.png")
    assert not o.written_by_us(tmp_path / "plain.png")
    assert o.written_by_us(put("signed.png", o.sign_png(png)))
    from PIL import Image
    with Image.open(tmp_path / "signed.png") as im:
        assert im.info["Software"].startswith("survive-sim")
    assert o.written_by_us(put("a.svg", o.sign_svg('<?xml version="1.0"?>\n<svg/>')))
    assert not o.written_by_us(put("b.svg", "<svg/>"))
    assert o.written_by_us(put("a.html", o.sign_html("<html><head></head></html>")))
    assert not o.written_by_us(put("b.html", "<html><head></head></html>"))
    assert o.written_by_us(put("a.md", o.sign_md("# x\n")))
    assert not o.written_by_us(put("b.md", "# x\n"))
    assert o.written_by_us(put("a.json", '{"format": "survive-sim-log/2"}'))
    assert not o.written_by_us(put("b.json", '{"format": "x"}'))
    assert not o.written_by_us(put("c.json", "not json"))
    assert o.written_by_us(put("a.csv", "game,seed,players,seats,end_reason,turns\n0,0,4,4,x,9\n"))
    assert o.written_by_us(put("b.csv", "# generator: survive-sim 1\nx\n"))
    assert not o.written_by_us(put("c.csv", "a,b\n"))
    gif = o.sign_gif(FOREIGN["user.gif"])
    assert o.written_by_us(put("a.gif", gif)) and not o.written_by_us(put("b.gif",
                                                                            FOREIGN["user.gif"]))
    frame = pd.DataFrame({"game": [0], "seed": [0], "players": [4], "seats": [4],
                          "end_reason": ["volcano"]})
    frame.to_parquet(tmp_path / "a.parquet")
    assert o.written_by_us(tmp_path / "a.parquet")
    table = pa.table({"x": [1]}).replace_schema_metadata({b"survive-sim": b"{}"})
    pq.write_table(table, tmp_path / "b.parquet")
    assert o.written_by_us(tmp_path / "b.parquet")
    pd.DataFrame({"x": [1]}).to_parquet(tmp_path / "c.parquet")
    assert not o.written_by_us(tmp_path / "c.parquet")
    assert not o.written_by_us(put("d.parquet", "garbage"))
    assert not o.written_by_us(put("a.txt", "survive-sim"))     # an extension we never write
    assert o.replaceable(tmp_path / "missing.png") and o.replaceable(put("e.png", b""))
    os.symlink("signed.png", tmp_path / "l.png")
    assert not o.replaceable(tmp_path / "l.png") and not o.written_by_us(tmp_path / "l.png")


# ---------------------------------------------------------------------------- case 4: bad logs
def _bad_logs(good: dict) -> dict[str, bytes | object]:
    import copy

    def edit(fn):
        d = copy.deepcopy(good)
        fn(d)
        return d

    return {
        "settings is a string": ({**good, "settings": "4 players"}, '"settings" is a string'),
        "null": (None, "null"),
        "a list": ([1, 2], "a list"),
        "missing tiles": ({k: v for k, v in good.items() if k != "tiles"}, "no tiles"),
        "players a string": (edit(lambda d: d["settings"].update(players="four")), '"players"'),
        "seat a string": (edit(lambda d: d["events"][2].update(seat="1")), "event 2's \"seat\""),
        "after a number": (edit(lambda d: d["events"][1].update(after=3)), "event 1's \"after\""),
        "explorers wrong": (edit(lambda d: d["events"][1]["after"].update(explorers="x")),
                            '"explorers"'),
        "tile past the board": (edit(lambda d: d["tiles"][0].update(hex=555)), "not a consistent"),
        "strategies a number": (edit(lambda d: d.update(strategies=5)), '"strategies"'),
        "not JSON": (b"hello {", "not valid JSON"),
        "binary": (bytes(range(256)) * 4, "not a text file"),
        "empty": (b"", "is empty"),
        "another format": ({"format": "other/1"}, "format 'other/1'"),
    }


def _write_bad(tmp_path: Path, good: dict, case: str) -> tuple[Path, str]:
    content, needle = _bad_logs(good)[case]
    p = tmp_path / "bad.json"
    p.write_bytes(content if isinstance(content, bytes) else json.dumps(content).encode())
    return p, needle


BAD_CASES = ["settings is a string", "null", "a list", "missing tiles", "players a string",
             "seat a string", "after a number", "explorers wrong", "tile past the board",
             "strategies a number", "not JSON", "binary", "empty", "another format"]


@pytest.mark.parametrize("case", BAD_CASES)
def test_draw_and_view_refuse_a_bad_log_in_one_line(saved_log, tmp_path, case):
    bad, needle = _write_bad(tmp_path, json.loads(saved_log.read_text()), case)
    content = bad.read_bytes()
    draw = cli(tmp_path, "draw", "--log", "bad.json", "--out", "x.png")
    usage_error(draw, "bad.json", needle)
    view = cli(tmp_path, "view", "bad.json", "--html", "x.html")
    usage_error(view, "bad.json", needle)
    assert sorted(os.listdir(tmp_path)) == ["bad.json"] and bad.read_bytes() == content


# ---------------------------------------------------------------------------- case 5: draw bounds
@pytest.mark.parametrize("args, needle", [
    (("--scale", "nan"), "not a finite number"),
    (("--scale", "inf"), "not a finite number"),
    (("--scale", "-inf"), "not a finite number"),
    (("--scale", "1e309"), "not a finite number"),
    (("--scale", "5"), "0.25<=x<=4.0"),
    (("--event", "99999999999999999999"), "--event"),
    (("--event", "-99999999999999999999"), "--event"),
    (("--turn", "99999999999999999999"), "--turn"),
])
def test_draw_numbers_are_bounded(tmp_path, args, needle):
    usage_error(cli(tmp_path, "draw", "--game", 1, "--out", "b.png", *args), needle)
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("args, needle", [
    (("--event", 9_223_372_036_854_775_807), "accepted 0.."),
    (("--event", -1), "accepted 0.."),
    (("--turn", -5), "--turn -5 is outside the game: accepted 1.."),
    (("--turn", 0), "accepted 1.."),
    (("--turn", 9_223_372_036_854_775_807), "accepted 1.."),
])
def test_draw_event_and_turn_outside_the_game(log, tmp_path, args, needle):
    """Within int64, an event or turn the game does not have is refused naming the game's
    own range (the log's events and turns)."""
    usage_error(cli(tmp_path, "draw", "--log", "game.json", "--out", "b.png", *args), needle)
    assert os.listdir(tmp_path) == ["game.json"]


# ---------------------------------------------------------------------------- case 6: referee
@pytest.mark.parametrize("case", ["settings is a string", "null", "missing tiles",
                                  "seat a string", "explorers wrong", "not JSON"])
def test_referee_calls_a_file_that_is_not_a_log_bad_input(saved_log, tmp_path, case):
    bad, needle = _write_bad(tmp_path, json.loads(saved_log.read_text()), case)
    p = cli(tmp_path, "referee", "bad.json")
    usage_error(p, "bad.json", needle)
    assert "DISCREPANCY" not in p.stdout


def test_referee_unknown_event_type_is_bad_input(saved_log, tmp_path):
    good = json.loads(saved_log.read_text())
    good["events"][3]["type"] = "teleport"
    (tmp_path / "bad.json").write_text(json.dumps(good))
    usage_error(cli(tmp_path, "referee", "bad.json"), "not a well-formed", "teleport")


def test_referee_a_rule_break_is_a_finding(saved_log, tmp_path):
    good = json.loads(saved_log.read_text())
    ok(cli(saved_log.parent, "referee", saved_log.name))
    good["record"]["score_1"] += 1
    (tmp_path / "broken.json").write_text(json.dumps(good))
    p = cli(tmp_path, "referee", "broken.json")
    assert p.returncode == 1 and p.stdout.startswith("referee: DISCREPANCY [B7.2]"), p.stdout
    assert "Traceback" not in p.stderr


# ---------------------------------------------------------------------------- case 7: max turns
@pytest.mark.parametrize("value", ["2147483648", "99999999999999999999", "0"])
def test_replay_max_turns_is_bounded(tmp_path, value):
    usage_error(cli(tmp_path, "replay", "--game", 1, "--max-turns", value, "--json", "g.json"),
                "--max-turns")
    assert os.listdir(tmp_path) == []


# ---------------------------------------------------------------------------- after kill -9
DEAD = "999999999-1"                 # a writer tag (pid-start) of no running process


def _tiny_report():
    import pandas as pd

    from reports.page import Report, Section, Table
    return Report("tiny", sections=[Section("s", tables=[Table("t", pd.DataFrame({"a": [1]}))])])


def test_a_report_killed_before_its_swap_leaves_nothing_a_later_one_does_not_clear(tmp_path):
    """Build folders and swapped-out reports of killed writers go; a live writer's stays."""
    from experiments.store.runs import writer_tag
    from reports.page import write_report
    rep = tmp_path / "rep"
    write_report(_tiny_report(), rep)
    (rep / "notes.txt").write_text("mine")
    for name in (f".rep.tmp-{DEAD}-abcd", f".rep.old-{DEAD}-ef01"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "index.html").write_text("half")
    live = tmp_path / f".rep.tmp-{writer_tag()}-beef"        # this process: still writing
    live.mkdir()
    write_report(_tiny_report(), rep)
    assert sorted(p.name for p in tmp_path.iterdir()) == [live.name, "rep"]
    assert (rep / "notes.txt").read_text() == "mine"


def test_a_report_killed_between_the_two_renames_of_its_swap_gets_the_old_one_back(tmp_path):
    """Killed after the earlier report was renamed away and before the new one came in: the
    earlier one (with the user's files) goes back in its place, then the report is written."""
    from reports.page import write_report
    rep = tmp_path / "rep"
    write_report(_tiny_report(), rep)
    (rep / "notes.txt").write_text("mine")
    os.rename(rep, tmp_path / f".rep.old-{DEAD}-ef01")
    (tmp_path / f".rep.tmp-{DEAD}-abcd").mkdir()
    write_report(_tiny_report(), rep)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rep"]
    assert (rep / "notes.txt").read_text() == "mine" and (rep / "index.html").exists()

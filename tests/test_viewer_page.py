"""The replay viewer page without a browser (``replays.viewer``, ``survive-sim replay --html``):
the data embedded in the page is the log's, frame by frame; the page loads nothing from the
network and stays small (a 6-player game with every expansion under 2 MB); the rules the game
cites are in it with their text from RULES.md; the command writes it atomically and refuses an
unwritable path with one line and exit code 2. The browser test is test_viewer_browser.py."""
from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import pytest
from support.cli_harness import ROOT, assert_usage_error, invoke, listing, runner

from replays.draw.scene import event_text, rule_of, scene
from replays.draw.svg import layers
from replays.viewer.page import SIZE_LIMIT, build_page, delta_frames, expand, squeeze
from replays.viewer.rules import all_rules, parse_rules
from survive_sim.cli import main

SETTINGS = {"four": dict(players=4, strategies=("greedy",)),
            "six-all": dict(players=6, strategies=("greedy",), challenges=(1, 2, 5, 6),
                            squid=True)}


@pytest.fixture(scope="module")
def logs():
    from play.record import game_log
    from play.settings import Settings
    return {name: game_log(Settings(**kw), 1, 7) for name, kw in SETTINGS.items()}


@pytest.fixture(scope="module")
def pages(logs):
    return {name: build_page(log) for name, log in logs.items()}


def embedded(page: str) -> dict:
    m = re.search(r'<script type="application/json" id="game-data">(.*?)</script>', page, re.S)
    assert m, "no game data in the page"
    return json.loads(m.group(1))


class _Tags(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.attrs, self.ids = [], [], set()

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attrs += [(tag, k, v) for k, v in attrs]
        self.ids |= {v for k, v in attrs if k == "id"}


def test_every_frame_is_the_logs_event(logs, pages):
    """Per event: its text, rule id and turn; its pieces are exactly the fragments
    ``replays.draw`` draws for that position; the turn starts are the log's."""
    for name, log in logs.items():
        d = embedded(pages[name])
        events = log["events"]
        assert len(d["frames"]) == len(events)
        for i, ev in enumerate(events):
            assert d["texts"][d["text"][i]] == event_text(log, i)
            assert d["rules"][d["rule"][i]] == rule_of(ev)
            assert d["turn"][i] == ev["turn"]
        assert d["turnStarts"] == [e["i"] for e in events if e["type"] == "turn_start"]
        frames, frags = expand(d)
        for i in sorted({0, 1, len(events) // 3, len(events) // 2, len(events) - 1}):
            want = list(layers(scene(log, i))["pieces"].values())
            assert [frags[k] for k in frames[i]] == want, (name, i)


def test_every_explorer_in_play_is_drawn_and_no_lost_one(logs, pages):
    for name, log in logs.items():
        frames, frags = expand(embedded(pages[name]))
        for i, ev in enumerate(log["events"]):
            drawn = "".join(frags[k] for k in frames[i])
            for e, loc, _ in ev["after"]["explorers"]:
                if loc in ("land", "sea", "boat"):
                    assert f'<g id="ex-{e}">' in drawn, (name, i, e)
                elif loc == "lost":
                    assert f'<g id="ex-{e}">' not in drawn, (name, i, e)


def test_fragments_are_stored_once(pages):
    for page in pages.values():
        d = embedded(page)
        frames, frags = expand(d)
        assert len(set(frags)) == len(frags)
        assert len(set(d["texts"])) == len(d["texts"])
        assert {k for f in frames for k in f} == set(range(len(frags)))
        assert sum(f[0] == -1 for f in d["frames"]) > len(frames) / 2    # most list changes


def test_squeeze_and_delta_frames_round_trip():
    frags = ['<g id="a"><title>x ~ y</title><circle id="a.t" cx="1" cy="2" r="3" '
             'fill="#FFFFFF"/></g>',
             '<g id="last-event"><polygon id="e" points="1,2" fill="none" stroke="#111111"/></g>',
             'plain "quoted" text with ^ and |']
    table, out = squeeze(frags)
    assert not set("~^|") & set(table)                     # characters the fragments use
    assert sum(map(len, out)) < sum(map(len, frags)) * 0.6
    frames = [[0, 1], [0, 2], [0, 2, 1], [1, 2, 0], [1, 2, 1], [2]]
    data = {"frames": delta_frames(frames), "frags": out, "tokens": table}
    assert expand(data) == (frames, frags)


def test_the_page_is_self_contained(pages):
    """No network: no http(s) anywhere, no external script, style, image, font or frame."""
    for page in pages.values():
        assert "http://" not in page and "https://" not in page
        assert "@import" not in page and "url(" not in page
        p = _Tags()
        p.feed(page)
        assert not [a for a in p.attrs if a[1] in ("src", "srcset", "xlink:href")], p.attrs
        assert not {"link", "iframe", "img", "object", "embed"} & set(p.tags)
        hrefs = [v for _, k, v in p.attrs if k == "href"]
        assert all(h.startswith("#") for h in hrefs), hrefs
        assert p.tags.count("script") == 2 and p.tags.count("style") == 1
        for needed in ("board", "pieces", "slider", "first", "prev-turn", "prev", "next",
                       "next-turn", "last", "event-text", "step-rule", "scores", "rules"):
            assert needed in p.ids, needed


def test_pages_are_small(pages):
    sizes = {name: len(page.encode("utf-8")) for name, page in pages.items()}
    assert sizes["six-all"] < SIZE_LIMIT, sizes
    assert sizes["four"] < 1_000_000, sizes


def test_the_cited_rules_are_embedded_with_their_text(logs, pages):
    rules = all_rules()
    for name, log in logs.items():
        cited = {rule_of(ev) for ev in log["events"]} - {""}
        p = _Tags()
        p.feed(pages[name])
        for rid in cited:
            assert rid in rules, rid
            assert f"rule-{rid}" in p.ids, (name, rid)
        assert {i[5:] for i in p.ids if i.startswith("rule-")} == cited
    assert 5 in SETTINGS["six-all"]["challenges"] and "X5.3" in \
        {rule_of(ev) for ev in logs["six-all"]["events"]}


def test_rules_text_is_read_from_the_specification():
    text = ("## B5 Turn\n\n| id | step | rule |\n|---|---|---|\n"
            "| B5.2 | 2 Move | Up to **3 movement points** <x> |\n\n## B3 Tile backs\n\n"
            "| id | back | border | beach | forest | mountain | effect |\n"
            "|---|---|---|---|---|---|---|\n"
            "| B3.2 | Shark | green | 3 | 2 | 1 | a `shark` goes |\n")
    rules = parse_rules(text)
    assert rules["B5.2"]["section"] == "B5 Turn"
    assert "<b>3 movement points</b> &lt;x&gt;" in rules["B5.2"]["html"]
    assert "3 beach, 2 forest, 1 mountain" in rules["B3.2"]["html"]
    assert "<code>shark</code>" in rules["B3.2"]["html"]
    shipped = all_rules()
    assert len(shipped) > 90 and {"B5.2", "X7.4", "R10"} <= set(shipped)
    # docs/RULES.md is the shipped file (one copy in the repository)
    assert (ROOT / "docs" / "RULES.md").resolve() == (ROOT / "simulator" / "data" /
                                                      "RULES.md").resolve()


def test_replay_writes_the_page(tmp_path):
    out = tmp_path / "game.html"
    r = invoke("replay", "--seed", 1, "--game", 7, "--players", 4, "--strategies", "greedy",
               "--html", out)
    assert r.exit_code == 0, r.output
    assert r.stdout.rstrip().endswith(f"wrote {out}")
    assert listing(tmp_path) == ["game.html"]
    assert embedded(out.read_text(encoding="utf-8"))["texts"]


@pytest.mark.parametrize("where, needle", [("{tmp}/no/game.html", "does not exist"),
                                           ("{tmp}", "is a directory")])
def test_replay_html_bad_path_is_one_line_and_writes_nothing(tmp_path, where, needle):
    before = listing(tmp_path)
    r = runner().invoke(main, ["replay", "--seed", "1", "--game", "0", "--html",
                               where.format(tmp=tmp_path)])
    assert_usage_error(r.exit_code, r.stderr, r.stdout, needle)
    assert listing(tmp_path) == before


def test_replay_html_read_only_folder(tmp_path):
    import os
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o555)
    try:
        if os.access(ro, os.W_OK):
            pytest.skip("running as a user who may write anywhere (root)")
        r = runner().invoke(main, ["replay", "--seed", "1", "--game", "0", "--html",
                                   str(ro / "g.html")])
        assert_usage_error(r.exit_code, r.stderr, r.stdout, "not writable")
        assert listing(ro) == []
    finally:
        ro.chmod(0o755)


def test_view_writes_the_page_of_a_saved_log(logs, tmp_path):
    saved = tmp_path / "game.json"
    saved.write_text(json.dumps(logs["four"]))
    out = tmp_path / "game.html"
    r = invoke("view", saved, "--html", out)
    assert r.exit_code == 0, r.output
    assert out.read_text(encoding="utf-8") == build_page(logs["four"])


@pytest.mark.parametrize("content, where, needle", [
    ("{not json", "{tmp}/g.html", "not valid JSON"),
    ("TRUNCATED", "{tmp}/g.html", "a truncated file?"),
    ('{"format": "other"}', "{tmp}/g.html", "not a survive-sim log"),
    (None, "{tmp}/g.html", "cannot read"),
    ("LOG", "{tmp}/no/g.html", "does not exist"),
])
def test_view_bad_input_is_one_line_and_writes_nothing(logs, tmp_path, content, where, needle):
    saved = tmp_path / "in.json"
    text = json.dumps(logs["four"])
    if content == "TRUNCATED":
        saved.write_text(text[:len(text) // 2])
    elif content == "LOG":
        saved.write_text(text)
    elif content is not None:
        saved.write_text(content)
    before = listing(tmp_path)
    r = runner().invoke(main, ["view", str(saved), "--html", where.format(tmp=tmp_path)])
    assert_usage_error(r.exit_code, r.stderr, r.stdout, needle)
    assert listing(tmp_path) == before

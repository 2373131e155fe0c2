"""The replay viewer page (``replays.viewer``, ``survive-sim replay --html``) in a real browser.

Debian's ``chromium`` and its driver, driven headless by Selenium, open a page built from a
logged game straight from disk (``file://``) and step through it with the buttons, the keys,
the slider and the URL hash; the event text, the frame line and the pieces' positions must be
those of the log, the rule link must open the rule's text, and the console must stay free of
errors. One browser serves the whole module. Without chromium, its driver or Selenium the
tests are skipped with the reason, except under ``CI=true`` (``.ci/run`` installs them), where
they fail.
"""
from __future__ import annotations

import math
import os
import re
import shutil

import pytest

from replays.draw import layout
from replays.draw.scene import event_text, rule_of

pytestmark = pytest.mark.slow

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
IN_CI = os.environ.get("CI", "").lower() == "true"


def _missing() -> str | None:
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install '.[test]')"
    for what, path in (("chromium", CHROMIUM), ("chromedriver", DRIVER)):
        if not os.access(path, os.X_OK):
            return f"{what} not found at {path} (apt-get install chromium chromium-driver)"
    return None


@pytest.fixture(scope="module")
def log():
    from play.record import game_log
    from play.settings import Settings
    return game_log(Settings(players=4, strategies=("greedy",)), 7, 3)


@pytest.fixture(scope="module")
def page_url(log, tmp_path_factory):
    from replays.viewer.page import build_page
    path = tmp_path_factory.mktemp("viewer") / "game.html"
    path.write_text(build_page(log), encoding="utf-8")
    return path.as_uri()


@pytest.fixture(scope="module")
def browser():
    why = _missing()
    if why:
        if IN_CI:
            pytest.fail(f"CI=true but the browser test cannot run: {why}")
        pytest.skip(why)
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    options = Options()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1400,900", "--allow-file-access-from-files"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(DRIVER))
    driver.set_page_load_timeout(60)
    yield driver
    driver.quit()


@pytest.fixture
def page(browser, page_url):
    """The page opened afresh at event 0; after the test, the console must hold no error."""
    browser.get("about:blank")
    browser.get_log("browser")
    browser.get(page_url)
    yield browser
    errors = [e for e in browser.get_log("browser") if e["level"] in ("SEVERE", "ERROR")]
    assert errors == [], errors


# ------------------------------------------------------------------------------ helpers
def frame_line(driver) -> str:
    return driver.find_element("id", "frame-line").text


def shown(driver) -> int:
    m = re.fullmatch(r"event (\d+) of (\d+), turn (\d+)", frame_line(driver))
    assert m, frame_line(driver)
    return int(m.group(1))


def click(driver, button: str) -> None:
    driver.find_element("id", button).click()


def press(driver, *keys) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys
    actions = ActionChains(driver)
    for key in keys:
        if isinstance(key, tuple):                     # (modifier, key)
            actions.key_down(getattr(Keys, key[0])).send_keys(getattr(Keys, key[1])) \
                .key_up(getattr(Keys, key[0]))
        else:
            actions.send_keys(getattr(Keys, key))
    actions.perform()


def token_centre(driver, explorer: int) -> tuple[float, float]:
    """The centre of explorer ``explorer``'s token on the page."""
    circle = driver.find_element("css selector", f'g[id="ex-{explorer}"] circle[id$=".token"]')
    return float(circle.get_attribute("cx")), float(circle.get_attribute("cy"))


def nearest_hex(x: float, y: float) -> int:
    centres = layout.geometry().centres
    return min(range(len(centres)), key=lambda h: math.dist(centres[h], (x, y)))


def turn_starts(log) -> list[int]:
    return [e["i"] for e in log["events"] if e["type"] == "turn_start"]


# ------------------------------------------------------------------------------ tests
def test_opens_at_event_0_with_its_text_and_rule(page, log):
    n = len(log["events"]) - 1
    assert frame_line(page) == f"event 0 of {n}, turn 0"
    assert page.find_element("id", "event-text").text == event_text(log, 0)
    assert page.find_element("id", "step-rule").text == rule_of(log["events"][0])
    assert page.find_element("id", "first").get_attribute("disabled") is not None


def test_buttons_step_by_event_and_by_turn(page, log):
    events, starts = log["events"], turn_starts(log)
    for k in range(1, 4):
        click(page, "next")
        assert shown(page) == k
        assert page.find_element("id", "event-text").text == event_text(log, k)
    click(page, "prev")
    assert shown(page) == 2
    click(page, "next-turn")
    assert shown(page) == starts[0]
    click(page, "next-turn")
    assert shown(page) == starts[1]
    assert frame_line(page).endswith(f"turn {events[starts[1]]['turn']}")
    click(page, "next")
    click(page, "prev-turn")                           # back to the start of this turn
    assert shown(page) == starts[1]
    click(page, "prev-turn")
    assert shown(page) == starts[0]
    click(page, "last")
    assert shown(page) == len(events) - 1
    assert page.find_element("id", "next").get_attribute("disabled") is not None
    click(page, "first")
    assert shown(page) == 0


def test_keys_step_by_event_and_by_turn(page, log):
    starts, last = turn_starts(log), len(log["events"]) - 1
    press(page, "ARROW_RIGHT", "ARROW_RIGHT")
    assert shown(page) == 2
    press(page, "ARROW_LEFT")
    assert shown(page) == 1
    press(page, "ARROW_DOWN")
    assert shown(page) == starts[0]
    press(page, ("SHIFT", "ARROW_RIGHT"))
    assert shown(page) == starts[1]
    press(page, "ARROW_UP")
    assert shown(page) == starts[0]
    press(page, ("SHIFT", "ARROW_LEFT"))
    assert shown(page) == 0
    press(page, "END")
    assert shown(page) == last
    press(page, "ARROW_RIGHT")                          # nothing after the last event
    assert shown(page) == last
    press(page, "HOME")
    assert shown(page) == 0
    assert page.find_element("id", "event-text").text == event_text(log, 0)


def test_explorer_tokens_stand_where_the_log_puts_them(page, log):
    """After each of the first walks, the walker's token is in the hex the event names, and
    every explorer on land is in its hex of that event's ``after``."""
    walks = [e for e in log["events"] if e["type"] == "move" and e["mode"] == "walk"][:3]
    assert walks, "the game has no walk"
    for ev in walks:
        page.get(page.current_url.split("#")[0] + f"#event={ev['i']}")
        page.refresh()
        assert shown(page) == ev["i"]
        assert nearest_hex(*token_centre(page, ev["id"])) == ev["to"]
        for eid, loc, at in ev["after"]["explorers"]:
            if loc == "land":
                assert nearest_hex(*token_centre(page, eid)) == at, (ev["i"], eid)
        # one step back: the walker is where it came from (the hex before its walk)
        click(page, "prev")
        before = {e: at for e, loc, at in log["events"][ev["i"] - 1]["after"]["explorers"]}
        assert nearest_hex(*token_centre(page, ev["id"])) == before[ev["id"]]


def test_slider_and_hash_open_an_event(page, log):
    slider = page.find_element("id", "slider")
    assert slider.get_attribute("max") == str(len(log["events"]) - 1)
    page.execute_script("arguments[0].value = 120; arguments[0].dispatchEvent("
                        "new Event('input', {bubbles: true}));", slider)
    assert shown(page) == 120
    assert page.find_element("id", "event-text").text == event_text(log, 120)
    assert page.execute_script("return location.hash") == "#event=120"
    slider.click()                                     # a click on the track moves there
    middle = shown(page)
    assert abs(middle - len(log["events"]) / 2) < len(log["events"]) / 10
    assert slider.get_attribute("value") == str(middle)
    press(page, "ARROW_RIGHT")                         # with the slider focused, keys still
    assert shown(page) == middle + 1                   # step one event
    press(page, "ARROW_DOWN")
    assert shown(page) == next(t for t in turn_starts(log) if t > middle + 1)
    page.get(page.current_url.split("#")[0] + "#event=57")
    page.refresh()
    assert shown(page) == 57
    assert page.find_element("id", "slider").get_attribute("value") == "57"


def test_rule_link_opens_the_rules_text(page, log):
    """Clicking the step's rule id shows the rule's text under the event and marks it in the
    open rules panel, without scrolling the page away from the board; the text follows the
    steps; ``#rule-ID`` opens the panel at that rule when the page loads."""
    events = log["events"]
    i = next(e["i"] for e in events if e["type"] == "sink")
    page.get(page.current_url.split("#")[0] + f"#event={i}")
    page.refresh()
    rid = rule_of(events[i])
    link = page.find_element("id", "step-rule")
    assert link.text == rid and link.get_attribute("href").endswith(f"#rule-{rid}")
    panel = page.find_element("id", "rules")
    text = page.find_element("id", "step-rule-text")
    assert panel.get_attribute("open") is None and not text.is_displayed()
    scrolled = page.execute_script("return window.scrollY")
    link.click()
    assert panel.get_attribute("open") is not None
    rule = page.find_element("id", f"rule-{rid}")
    assert rule.is_displayed() and "current" in rule.get_attribute("class").split()
    assert rule.text.startswith(rid) and len(rule.text) > len(rid) + 20
    assert text.is_displayed() and text.text and text.text in rule.text
    assert page.execute_script("return window.scrollY") == scrolled
    assert page.execute_script("return location.hash") == f"#event={i}"
    j = next(e["i"] for e in events[i:] if rule_of(e) != rid)    # a step of another rule
    page.execute_script(f"location.hash = '#event={j}'")
    assert shown(page) == j
    other = page.find_element("id", f"rule-{rule_of(events[j])}")
    assert "current" in other.get_attribute("class").split()
    assert "current" not in rule.get_attribute("class").split()
    assert text.text in other.text
    page.get(page.current_url.split("#")[0] + f"#rule-{rid}")
    page.refresh()
    assert page.find_element("id", "rules").get_attribute("open") is not None
    assert "current" in page.find_element("id", f"rule-{rid}").get_attribute("class").split()


def test_the_console_check_sees_script_errors(browser, page_url):
    """The check every test ends with is not blind: an error thrown on the page shows up."""
    browser.get(page_url)
    browser.get_log("browser")
    browser.execute_script("setTimeout(function () { throw new Error('planted'); }, 0);")
    import time
    for _ in range(50):
        logged = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
        if logged:
            break
        time.sleep(0.05)
    assert logged and "planted" in logged[0]["message"]

// survive-sim replay viewer: steps through the frames embedded in #game-data (replays.viewer.page).
// Data: frags (distinct SVG fragments of the pieces layer), frames[i] = indices into frags in
// drawing order; per frame an index into texts (event text), heads (header lines), scores
// (a scoreboard: its head and seat rows, as indices into rows) and rules (rule ids), and the turn; turnStarts = the frames where a
// seat-turn begins. No network, no storage: everything is in the page.
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("game-data").textContent);
  // frames that list only their changes (page.delta_frames) in full
  (function () {
    for (var i = 1; i < D.frames.length; i++) {
      var f = D.frames[i], last = D.frames[i - 1];
      if (f.length && f[0] === -1) {       // [-1, copy, skip, m, v1..vm, ...]
        var full = [], at = 0, k = 1;
        while (k < f.length) {
          var copy = f[k], skip = f[k + 1], m = f[k + 2];
          for (var c = 0; c < copy; c++) full.push(last[at + c]);
          at += copy + skip;
          for (c = 0; c < m; c++) full.push(f[k + 3 + c]);
          k += 3 + m;
        }
        D.frames[i] = full;
      }
    }
  })();
  // a fragment with its substrings put back (page.squeeze), once, when first drawn
  var tokens = D.tokens, chars = Object.keys(tokens), plain = [];
  var tokenRe = chars.length ? new RegExp("[" + chars.map(function (c) {
    return "\\" + c; }).join("") + "]", "g") : null;
  function frag(k) {
    var s = plain[k];
    if (s === undefined) {
      s = tokenRe ? D.frags[k].replace(tokenRe, function (c) { return tokens[c]; }) : D.frags[k];
      plain[k] = s;
    }
    return s;
  }
  var n = D.frames.length;
  var pieces = document.getElementById("pieces");
  var slider = document.getElementById("slider");
  var frameLine = document.getElementById("frame-line");
  var head = document.getElementById("head");
  var eventText = document.getElementById("event-text");
  var ruleLink = document.getElementById("step-rule");
  var ruleSection = document.getElementById("step-rule-section");
  var ruleText = document.getElementById("step-rule-text");
  var scores = document.getElementById("scores");
  var rulesPanel = document.getElementById("rules");
  var current = -1;
  var shownScore = -1, shownHead = -1;

  function clamp(i) { return Math.max(0, Math.min(n - 1, i)); }

  function show(i, keepHash) {
    i = clamp(i);
    var f = D.frames[i];
    var html = [];
    for (var k = 0; k < f.length; k++) html.push(frag(f[k]));
    pieces.innerHTML = html.join("");
    if (D.score[i] !== shownScore) {
      var rows = D.scores[D.score[i]], cells = [];
      for (k = 1; k < rows.length; k++) cells.push(D.rows[rows[k]]);
      scores.innerHTML = "<table>" + D.rows[rows[0]] + "<tbody>" + cells.join("") +
        "</tbody></table>";
      shownScore = D.score[i];
    }
    if (D.head[i] !== shownHead) { head.innerHTML = D.heads[D.head[i]]; shownHead = D.head[i]; }
    eventText.textContent = D.texts[D.text[i]];
    var rule = D.rules[D.rule[i]];
    ruleLink.textContent = rule;
    ruleLink.href = "#rule-" + rule;
    ruleLink.dataset.rule = rule;
    if (ruleShown) openRule(rule);
    var sec = D.sections[rule];
    ruleSection.textContent = sec ? "(" + sec + ")" : "";
    frameLine.textContent = "event " + i + " of " + (n - 1) + ", turn " + D.turn[i];
    slider.value = String(i);
    document.getElementById("first").disabled = document.getElementById("prev").disabled =
      document.getElementById("prev-turn").disabled = i === 0;
    document.getElementById("last").disabled = document.getElementById("next").disabled =
      document.getElementById("next-turn").disabled = i === n - 1;
    current = i;
    if (!keepHash) setHash("#event=" + i);
  }

  function setHash(h) {
    if (location.hash === h) return;
    if (window.history && history.replaceState) history.replaceState(null, "", h);
    else location.hash = h;
  }

  // the first frame of the turn after (dir +1) or before (dir -1) the one shown
  function turnStep(dir) {
    var t = D.turnStarts, k;
    if (dir > 0) {
      for (k = 0; k < t.length; k++) if (t[k] > current) return t[k];
      return n - 1;
    }
    for (k = t.length - 1; k >= 0; k--) if (t[k] < current) return t[k];
    return 0;
  }

  // the rule's text: under the event (kept up to date while stepping) and marked in the panel,
  // scrolled into view inside the panel only, so that the board stays where it is
  var ruleShown = false;
  function openRule(id) {
    var el = document.getElementById("rule-" + id);
    var marked = rulesPanel.querySelectorAll(".current");
    for (var k = 0; k < marked.length; k++) marked[k].classList.remove("current");
    rulesPanel.open = true;
    ruleShown = true;
    ruleText.hidden = false;
    ruleText.innerHTML = el ? el.innerHTML : "";
    if (el) {
      el.classList.add("current");
      var body = el.parentNode;
      body.scrollTop = el.offsetTop - 4;   // .rules-body is the offsetParent
    }
  }

  function fromHash() {
    var h = decodeURIComponent(location.hash || "");
    var m = /^#event=(\d+)$/.exec(h);
    if (m) { show(parseInt(m[1], 10), true); return true; }
    m = /^#rule-(.+)$/.exec(h);
    if (m) { openRule(m[1]); }
    return false;
  }

  var actions = {
    "first": function () { show(0); },
    "prev-turn": function () { show(turnStep(-1)); },
    "prev": function () { show(current - 1); },
    "next": function () { show(current + 1); },
    "next-turn": function () { show(turnStep(1)); },
    "last": function () { show(n - 1); }
  };
  Object.keys(actions).forEach(function (id) {
    document.getElementById(id).addEventListener("click", actions[id]);
  });
  slider.addEventListener("input", function () { show(parseInt(slider.value, 10)); });
  ruleLink.addEventListener("click", function (e) {
    e.preventDefault();                  // no jump of the page; #rule-ID still opens it on load
    openRule(ruleLink.dataset.rule);
  });
  window.addEventListener("hashchange", fromHash);
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    var tag = e.target && e.target.tagName;
    if (tag === "INPUT" && e.target !== slider || tag === "TEXTAREA" || tag === "SELECT") return;
    var act = null;
    switch (e.key) {
      case "ArrowLeft": act = e.shiftKey ? "prev-turn" : "prev"; break;
      case "ArrowRight": act = e.shiftKey ? "next-turn" : "next"; break;
      case "ArrowUp": act = "prev-turn"; break;
      case "ArrowDown": act = "next-turn"; break;
      case "Home": act = "first"; break;
      case "End": act = "last"; break;
    }
    if (act) { e.preventDefault(); actions[act](); }
  });

  if (!/^#event=\d+$/.test(location.hash)) show(0, true);
  fromHash();
})();

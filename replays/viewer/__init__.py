"""The replay viewer: a log (docs/replay-log.md) as one HTML page that opens from disk and steps
through the game by event and by turn (docs/viewer.md).

* ``page``: ``build_page(log) -> str``, the page; its embedded data format is described there.
* ``rules``: the text of the rules the page cites, read from the shipped RULES.md.
* ``viewer.html``, ``viewer.js``, ``viewer.css``: the page's template, script and style
  (package data, inlined by ``build_page``).
"""

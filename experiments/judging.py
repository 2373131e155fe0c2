"""Every claim's judge, in one table: the first claims' (``experiments.judges``) and those of
issue 27, by family (``judges_boats``: boats and turns; ``judges_games``: house rules, player
counts, challenges and expansions; ``judges_skill``: skill, luck and the leader)."""
from __future__ import annotations

from . import judges, judges_boats, judges_games, judges_skill

JUDGES = {**judges.JUDGES, **judges_boats.JUDGES, **judges_games.JUDGES, **judges_skill.JUDGES}
BRINGS = {**judges.BRINGS, "B2": ("B2r",), "S2": ("S2v",)}
# claims whose settings belong to one style of play each (a line-up, a pair of tables): a style
# holding none of them gets no row of its own (one row says so when no style holds any)
PER_STYLE = frozenset(judges_boats.JUDGES) | frozenset(judges_games.JUDGES) | \
    frozenset(judges_skill.JUDGES)

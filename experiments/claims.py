"""Claims about the game's balance: what was said, the question it becomes, the measure, the
tolerance (the smallest effect that matters) and the decision rule, in words.

A study file names the claims its report judges (``[claims.S1b]``, with parameters such as a
tolerance); ``check_claims`` validates that table. The judges that turn a run's games into
decisions are in ``experiments.judges``; the verdict table and the styles of play in
``experiments.verdicts``; the looks in ``experiments.looks``; the decision rules themselves in
``experiments.decisions``. The claims in words, with their sources, are docs/claims.md.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .decisions import BALANCE_RULE, DIRECTION_RULE, THRESHOLD_RULE


@dataclass(frozen=True)
class Param:
    """A claim's parameter: its default and the values accepted."""
    default: object
    low: float = 0.0            # numbers: low < value < high
    high: float = 1.0
    words: str = ""
    counts: bool = False        # a list of player counts (2-6) instead of a number

    def problem(self, value) -> str | None:
        if self.counts:
            if not (isinstance(value, list) and value and all(
                    isinstance(v, int) and not isinstance(v, bool) and 2 <= v <= 6
                    for v in value)):
                return "must be a list of player counts from 2 to 6, e.g. [5, 6]"
            return None
        if not isinstance(value, (int, float)) or isinstance(value, bool) \
                or not self.low < value < self.high:
            return f"must be a number between {self.low:g} and {self.high:g}"
        return None


@dataclass(frozen=True)
class Claim:
    id: str
    source: str                     # D designer, R review, P players, H hypothesis
    said: str                       # the claim as made
    question: str
    measure: str                    # what the effect column holds
    rule: str                       # the verdict rule in words
    family: str                     # what a correction covers, within one scope
    params: dict = field(default_factory=dict)      # name -> Param

    def defaults(self) -> dict:
        return {k: p.default for k, p in self.params.items()}


TOL_SEAT = Param(0.01, 0, 1, "win share per seat, absolute (0.01 = one percentage point)")

CLAIMS: dict[str, Claim] = {c.id: c for c in (
    Claim("S1", "D", "Seat order is an advantage: the first players keep the advantage of "
          "playing before the others (5-6 player rulebook).",
          "Under a flat allocation (2 boats each), do the first seats win more: does win share "
          "fall with seat, or does seat 1 win more than its fair share 1/N?",
          "seat 1's win share minus 1/N (pp); the slope over seats in the detail",
          "supported when either criterion shows an advantage larger than the tolerance: the "
          "slope of win share over seats below -tolerance/(N-1) per seat, or seat 1 above 1/N "
          "+ tolerance (each at Bonferroni alpha/2, intervals 97.5%); negligible when every "
          "seat's 95% interval lies within 1/N ± tolerance (TOST, intersection-union) and one "
          "criterion still shows a real advantage; refuted when every seat lies within it "
          "without one, or when the order is shown reversed (seat 1 below 1/N and the slope "
          "above 0, both at 97.5%); else inconclusive",
          "the two criteria (slope, seat 1) for support and for a reversed order: Bonferroni; "
          "the seats for the balance part: intersection-union (no correction)",
          {"tolerance": TOL_SEAT}),
    Claim("S1b", "D", "The rules' boats compensate: the first seats get one boat fewer "
          "(5 players 1,1,2,2,2; 6 players 1,1,1,1,2,2).",
          "Under the rules' boats, is every seat's win share within the tolerance of 1/N?",
          "win share minus 1/N of the seat farthest from it (pp)",
          BALANCE_RULE + "; the parts are the seats",
          "the N seats: intersection-union for support, Bonferroni (alpha/N) for refutation",
          {"tolerance": TOL_SEAT}),
    Claim("S1c", "D", "The rules' boats reduce the seat advantage of a flat allocation.",
          "On the same games, do the rules' boats remove more than the tolerance's share of "
          "the seats' spread around the fair share that flat boats leave?",
          "share of flat boats' squared seat spread that the rules' boats remove (1 - "
          "spread_rules / spread_flat, the spread being the sum over seats of (win share - "
          "1/N)^2 less its sampling noise; overcompensation counts as spread)",
          DIRECTION_RULE + "; the interval is Fieller's for the ratio of the two spreads "
          "(delta method over paired game indices), bounded once flat boats' spread is shown "
          "above 0",
          "none (one comparison per scope)",
          {"tolerance": Param(0.25, 0, 1, "share of the squared spread removed (0.25 = a "
                              "quarter)")}),
    Claim("N3", "D", "\"Fewer people to rescue, but fewer turns\": a player's task with 5-6 "
          "players is as with 4.",
          "On the same game indices, are the rescued fraction and the value fraction at 5 and "
          "6 players within the tolerance of 4 players'? (Like with like: a mixed table whose "
          "mix of strategies changes with the player count is left out.)",
          "difference to 4 players of the fraction farther from it (pp)",
          BALANCE_RULE + "; the parts are the rescued and the value fraction, each a paired "
          "difference over game indices",
          "the two fractions: intersection-union for support, Bonferroni for refutation",
          {"tolerance": Param(0.02, 0, 1, "fraction difference (0.02 = two points)")}),
    Claim("T1", "D", "The 5-6 player chain's \"fewer turns\" step favours the seats that had "
          "fewer turns: the late seats.",
          "Counted by the chain instead of as shared wins, on the same games, do wins move "
          "toward late seats by more than the tolerance?",
          "slope of win share over seats, chain minus shared (pp per seat)",
          DIRECTION_RULE + "; tolerance/(N-1) per seat; judged where the chain is the rule "
          "(5-6 players) unless the study's `counts` say otherwise",
          "none (one comparison per scope)",
          {"tolerance": TOL_SEAT,
           "counts": Param([5, 6], counts=True, words="player counts judged")}),
    Claim("T2", "H", "With 2-4 players ties for first are common enough to need a tie-break "
          "(the base rulebook has none).",
          "Is the share of games whose top score is shared above the threshold?",
          "share of games with a shared top score (%)",
          THRESHOLD_RULE + "; Wilson interval at the first look",
          "none (one rate per scope)",
          {"threshold": Param(0.05, 0, 1, "tie rate")}),
    Claim("N1", "R", "The game is best with 4 players.",
          "Is 4 players the closest (smallest gap between the top two scores, as a fraction "
          "of a player's value), the most decisive (fewest shared tops) and the fairest "
          "(smallest seat spread: the mean over seats of ((win share - 1/N) / (1/N))^2, less "
          "its sampling noise, under each count's own tie-break) player count, each by more "
          "than its tolerance?",
          "measures (of 3) on which 4 players is shown the best",
          "on each measure and other count, 4 is better when its paired difference lies "
          "below -tolerance, and not better when it lies above -tolerance (one-sided tests, "
          "Holm-adjusted over every measure and count at alpha/2 each way); supported when 4 "
          "is better than every other count on at least 2 of the 3 measures; refuted when on "
          "at least 2 measures it is not better than some count; else inconclusive",
          "the 3 measures x the other counts: Holm, each way",
          {"gap": Param(0.01, 0, 1, "gap of the top two, fraction of a player's value"),
           "ties": Param(0.01, 0, 1, "share of games with a shared top"),
           "fairness": Param(0.0025, 0, 1, "mean squared relative excess (0.0025: the seats "
                             "5% of 1/N off on average)")}),
    Claim("C6", "D", "Overpopulated is \"the ultimate in crazy fun with lots of "
          "destruction\": players have far too many explorers to save them all.",
          "Against the standard 6-player rules on the same game indices, are more explorers "
          "lost per player and game, and is a smaller fraction rescued, each by more than "
          "its tolerance?",
          "explorers lost per player and game, Overpopulated minus standard; the rescued "
          "fraction's change in the detail",
          "both parts by the direction rule: supported when both are supported (95%, "
          "intersection-union); refuted when either part is refuted, negligible when either "
          "is negligible (each at Bonferroni alpha/2, 97.5%); else inconclusive",
          "the two parts: intersection-union for support, Bonferroni against it",
          {"losses": Param(1.0, 0, 10, "explorers lost per player and game"),
           "rescued": Param(0.05, 0, 1, "rescued fraction")}),
    Claim("E2", "R", "The Giant Squid is \"particularly nasty\".",
          "Are more explorers lost per player and game with the squid (and with squid "
          "instead of whales) than in the base game, on the same game indices, by more than "
          "the tolerance?",
          "explorers lost per player and game, squid minus base game",
          DIRECTION_RULE, "none (one comparison per scope)",
          {"losses": Param(0.25, 0, 10, "explorers lost per player and game")}),
)}


def check_claims(claims: dict) -> str | None:
    """The problem with a study file's ``[claims]`` table, in one line, or None."""
    for cid, params in claims.items():
        if cid not in CLAIMS:
            return f"unknown claim {cid!r}; known: {', '.join(CLAIMS)}"
        for key, value in params.items():
            if key not in CLAIMS[cid].params:
                return (f"claims.{cid}: unknown parameter {key!r}; accepted: "
                        f"{', '.join(CLAIMS[cid].params) or 'none'}")
            problem = CLAIMS[cid].params[key].problem(value)
            if problem:
                return f"claims.{cid}.{key}: {problem}"
    return None

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

from .decisions import (
    AT_MOST_RULE,
    BALANCE_RULE,
    BOTH_RULE,
    CHANGES_RULE,
    DIRECTION_RULE,
    THRESHOLD_RULE,
)


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
    unit: str = ""                  # how the effect reads (``UNITS``); "" for the first claims

    def defaults(self) -> dict:
        return {k: p.default for k, p in self.params.items()}


TOL_SEAT = Param(0.01, 0, 1, "win share per seat, absolute (0.01 = one percentage point)")
# how an effect is shown: (factor, suffix, signed)
UNITS = {"pp": (100, " pp", True), "%": (100, "%", False), "explorers": (1, " explorers", True),
         "turns": (1, " turns", True), "points": (1, " points per turn", True),
         "rounds": (1, " rounds", True), "seats": (1, " seats", False),
         "share": (100, "% of the variance", False)}

CLAIMS: dict[str, Claim] = {c.id: c for c in (
    Claim("S1", "D", "Seat order is an advantage: the first players keep the advantage of "
          "playing before the others (5-6 player rulebook).",
          "Under a flat allocation (2 boats each), do the first seats win more: does win share "
          "fall with seat, or does seat 1 win more than its fair share 1/N?",
          "seat 1's win share minus 1/N (pp); the slope over seats in the detail",
          "supported when either criterion shows an advantage larger than the tolerance: the "
          "slope of win share over seats below -tolerance/(N-1) per seat, or seat 1 above 1/N "
          "+ tolerance (each by the direction rule at Bonferroni alpha/2, intervals 97.5%); "
          "negligible or refuted only when both criteria are (negligible when either still "
          "shows a real advantage); else inconclusive. Every seat within 1/N ± tolerance is "
          "not enough to rule the claim out (it allows a slope of tolerance/2 per seat at 5 "
          "players, twice the slope's tolerance): the seats' TOST and 'fair within' are in "
          "the detail",
          "the two criteria (slope, seat 1): Bonferroni for support, intersection-union "
          "against it (both must be ruled out)",
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
    Claim("B2", "P", "Boats are scarce and decisive: one starting boat more or fewer matters "
          "(players and reviews).",
          "Given one seat one boat more or one fewer than the rules' allocation (every seat in "
          "turn, 0-3 boats each, 12 at most, on the same games), does a boat change that seat's "
          "own win share by more than the tolerance, averaged over the seats?",
          "value of one boat: the seat's own win share with a boat more minus with a boat "
          "fewer, halved, averaged over the seats (pp); +1 and -1 boat and the score per boat "
          "in the detail",
          DIRECTION_RULE + "; one paired contrast over game indices of every setting at once "
          "(the rules' boats, each seat +1 and -1)",
          "none (one average per scope; the per-seat values in the report are descriptive)",
          {"tolerance": TOL_SEAT}, "pp"),
    Claim("B2r", "H", "A starting boat is worth more than one seat of turn order (the 5-6 "
          "player rules take a boat from the first seats to offset their earlier turns).",
          "How many seats of turn order is one boat worth: is the value of a boat divided by "
          "the win share a seat loses per seat later under flat boats above the tolerance?",
          "exchange rate: value of one boat / (minus the slope of win share over seats under "
          "flat boats), in seats of turn order",
          DIRECTION_RULE + "; the interval is Fieller's for the ratio (delta method over "
          "paired game indices), bounded once flat boats' slope is shown below 0",
          "none (one comparison per scope)",
          {"tolerance": Param(1.0, 0, 20, "seats of turn order")}, "seats"),
    Claim("S2", "D", "Late seats have one turn fewer: the chain's \"fewer turns\" step exists "
          "because the seats after the volcano's revealer \"had less turns\".",
          "Under the rules, does the first seat take more turns per game than the last, by "
          "more than the tolerance (3 to 6 players; 2 players is S4)?",
          "turns of seat 1 minus turns of the last seat per game; every seat's turns in the "
          "detail",
          DIRECTION_RULE, "none (one comparison per scope)",
          {"tolerance": Param(0.5, 0, 10, "turns per game")}, "turns"),
    Claim("S2v", "D", "A turn is worth something: the chain gives a tie to whoever had fewer "
          "turns.",
          "Within a seat, do the games in which it took one turn more than the table's average "
          "go with a higher score, by more than the tolerance per turn? (The slope of score on "
          "turns, each less the game's mean over players; turns are not randomised, so this is "
          "an association.)",
          "points per extra turn: the within-seat least-squares slope of score on turns, both "
          "less the game's mean, averaged over seats; the win share's slope in the detail",
          DIRECTION_RULE + "; the slope's interval by the delta method over game indices",
          "none (one average per scope)",
          {"tolerance": Param(0.5, 0, 30, "points per turn")}, "points"),
    Claim("S3", "H", "With 2-4 players the first seat wins more than 1/N.",
          "Under the rules' boats (two each), does seat 1 win more than its fair share 1/N, or "
          "does win share fall with seat (2 players: player A against B)?",
          "seat 1's win share minus 1/N (pp); the slope over seats in the detail",
          "as S1: supported when either criterion shows an advantage larger than the "
          "tolerance (Bonferroni alpha/2 each); negligible or refuted only when both criteria "
          "are; else inconclusive",
          "the two criteria: Bonferroni for support, intersection-union against it",
          {"tolerance": TOL_SEAT}, "pp"),
    Claim("S4", "H", "With 2 players (two colours each, seated A,B,A,B) player A gets more "
          "turns.",
          "Does player A take more turns per game than player B (both colours counted), by "
          "more than the tolerance?",
          "turns of player A minus player B per game",
          DIRECTION_RULE, "none (one comparison per scope)",
          {"tolerance": Param(0.25, 0, 10, "turns per game")}, "turns"),
    Claim("T3", "P", "House rule: the player with the most explorers rescued wins, their value "
          "breaking ties.",
          "On the same games, does that house rule name other winners than the rules (value, "
          "under the count's own tie-break) in more than the threshold's share of games?",
          "share of games whose winners differ (%)",
          THRESHOLD_RULE + "; Wilson interval at the first look", "none (one rate per scope)",
          {"threshold": Param(0.10, 0, 1, "share of games")}, "%"),
    Claim("N4", "P", "6 players is more hectic: explorers are dispatched very quickly.",
          "Against 4 players on the same game indices, is a larger share of each player's "
          "explorers lost, and are more explorers lost per player and round, each by more than "
          "its tolerance? (How early they go is not in the per-game table, which records no "
          "times.)",
          "share of each player's explorers lost, 6 minus 4 players (pp); explorers lost per "
          "player and round in the detail",
          BOTH_RULE, "the two parts: intersection-union for support, Bonferroni against it",
          {"lost": Param(0.05, 0, 1, "share of explorers lost"),
           "per_round": Param(0.1, 0, 10, "explorers lost per player and round")}, "pp"),
    Claim("C1", "H", "Densely Populated (Challenge 1: two explorers on an inland tile) makes "
          "the game deadlier.",
          "Against the base game on the same game indices, are more explorers lost per player "
          "and game, by more than the tolerance? (When the first explorers fall in is not in "
          "the per-game table.)",
          "explorers lost per player and game, Challenge 1 minus base game; the value "
          "fraction's change in the detail",
          DIRECTION_RULE, "none (one comparison per scope)",
          {"losses": Param(0.25, 0, 10, "explorers lost per player and game")}, "explorers"),
    Claim("C2", "H", "Leave No One Behind (Challenge 2: the game ends when no explorer is left) "
          "makes a longer game in which more is rescued.",
          "Against the base game on the same game indices, does the game last more rounds, "
          "and is a larger share of each player's value rescued, each by more than its "
          "tolerance?",
          "rounds per game, Challenge 2 minus base game; the value fraction's change and the "
          "share of turn-capped games in the detail",
          BOTH_RULE, "the two parts: intersection-union for support, Bonferroni against it",
          {"rounds": Param(1.0, 0, 100, "rounds per game"),
           "value": Param(0.05, 0, 1, "value fraction")}, "rounds"),
    Claim("C3", "H", "Everyone is Equal (Challenge 3: explorers count one each, values "
          "ignored) changes who wins.",
          "In games played under Challenge 3, would value scoring name other winners in more "
          "than the threshold's share of games?",
          "share of Challenge 3 games whose winners differ from value scoring's (%); the tie "
          "rate in the detail",
          THRESHOLD_RULE + "; Wilson interval at the first look", "none (one rate per scope)",
          {"threshold": Param(0.10, 0, 1, "share of games")}, "%"),
    Claim("C4", "H", "Atlantis is Gone (Challenge 4: the game ends when the last land tile "
          "goes) lets players rescue more.",
          "Against the base game on the same game indices, is a larger share of each player's "
          "value rescued, by more than the tolerance? (Seat 1's win share under both in the "
          "detail.)",
          "value fraction, Challenge 4 minus base game (pp)",
          DIRECTION_RULE, "none (one comparison per scope)",
          {"value": Param(0.05, 0, 1, "value fraction")}, "pp"),
    Claim("E1", "R", "With Dolphins & Dive Dice and the Giant Squid \"the game did not last "
          "longer\" and scores did not suffer.",
          "Against the base game on the same game indices, is the game at most the tolerance "
          "longer, and the value fraction at most its tolerance lower?",
          "rounds per game, expansions minus base game; the value fraction's change in the "
          "detail",
          AT_MOST_RULE, "the two parts: intersection-union for support, Bonferroni against it",
          {"rounds": Param(1.0, 0, 100, "rounds per game"),
           "value": Param(0.02, 0, 1, "value fraction")}, "rounds"),
    Claim("E1d", "R", "Dolphins are \"a powerful ally\".",
          "With Dolphins & Dive Dice (Challenge 5), are fewer explorers lost to sharks and "
          "serpents per player and game than without, on the same game indices, by more than "
          "the tolerance? (The dive dice move every creature too: the expansion is compared "
          "as played.)",
          "explorers lost to sharks and serpents per player and game, with minus without",
          DIRECTION_RULE + " (the claimed side: fewer)", "none (one comparison per scope)",
          {"losses": Param(0.25, 0, 10, "explorers lost per player and game")}, "explorers"),
    Claim("K1", "R", "\"A fair amount of planning\": a stronger player wins more (reviews).",
          "At a table of one stronger strategy and N-1 copies of a weaker one, every seat in "
          "turn, does the stronger win more than its fair share 1/N by more than the "
          "tolerance?",
          "the lone strategy's win share minus 1/N (pp)",
          DIRECTION_RULE, "none (one comparison per scope)",
          {"tolerance": Param(0.05, 0, 1, "win share")}, "pp"),
    Claim("K2", "R", "\"Mostly luck\" (reviews).",
          "At a mixed table played in every rotation, is more than the threshold's share of "
          "the variance of a player's score left to luck -- the game's seed (tiles and dice) "
          "and the rest -- rather than explained by who plays (the strategy) and where (the "
          "seat)?",
          "luck's share of the score variance: 1 - (strategy's + seat's shares); every "
          "component with its interval in the detail",
          THRESHOLD_RULE + "; the components from per-index moments (model in "
          "docs/verdicts.md), intervals by the delta method",
          "none (one share per scope; the components in the detail are descriptive)",
          {"threshold": Param(0.5, 0, 1, "share of the score variance")}, "share"),
    Claim("K3", "P", "Placement decides much of the game.",
          "Does a player who places its explorers and boats as greedy does win more than 1/N "
          "against players who place at random, all else equal, by more than the tolerance? "
          "(Two tables: everyone plays the rest at random, or everyone plays it as greedy.)",
          "the greedy-placing seat's win share minus 1/N (pp); its score against the others' "
          "in the detail",
          DIRECTION_RULE, "none (one comparison per scope)",
          {"tolerance": Param(0.02, 0, 1, "win share")}, "pp"),
    Claim("L1", "P", "Bash the leader: a player who attacks the leader changes who wins.",
          "When one seat of a mixed table is the leader-basher (saboteur) instead of another "
          "strategy, every seat in turn on the same games, does some other strategy's win "
          "share per seat move by more than the tolerance?",
          "the largest change of a strategy's win share per seat it holds, with the saboteur "
          "minus without (pp)",
          CHANGES_RULE + "; the parts are the strategies at both tables",
          "the strategies: Bonferroni for support, intersection-union against it",
          {"tolerance": Param(0.02, 0, 1, "win share per seat")}, "pp"),
    Claim("L2", "P", "Staying quiet wins: a low-profile style gains when someone bashes the "
          "leader.",
          "On the same tables, does careful's (the low-profile rung's) win share per seat rise "
          "by more than the tolerance when the saboteur joins?",
          "careful's win share per seat, with the saboteur minus without (pp)",
          DIRECTION_RULE, "none (one comparison per scope)",
          {"tolerance": TOL_SEAT}, "pp"),
)}


def win_share_params(cid: str) -> list[str]:
    """The parameters of a claim that are a tolerance in win share (what the report's
    sensitivity view varies: 0.5, 1, 2 and 3 pp)."""
    return [k for k, p in CLAIMS[cid].params.items()
            if not p.counts and p.words.startswith("win share")]


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

"""*Survive* as a PettingZoo AEC environment (docs/env.md): learning agents play the engine's
own game, one decision at a time, and can be measured like any rung.

The game is stepped by ``play.stepper`` (the engine re-entered from its journal, so no rule is
written twice and every chance outcome comes from the game's own streams). This module only
maps it onto PettingZoo's contract:

* agents ``seat_0 .. seat_{players-1}``; with 2 players an agent plays both its colours (B4.5);
* an action is a row of the legal options of the decision at hand: ``Discrete(MAX_OPTS)`` with
  the observation's ``action_mask``;
* an observation is the agent's honest view (R11) as one fixed-shape ``int32`` array: the
  decision, the public table, its own colours' private rows, the option rows
  (``play.observation``: ``OBS_*``);
* ``reset(seed=s)`` is game 0 of root seed ``s``; ``reset()`` then plays games 1, 2, ... of it,
  so a loop of resets walks the games of a table; ``options={"game": g}`` picks game ``g``;
* the reward, at the end only, is each player's tie-split win share (B7.3 / X1.6, with komi);
  the final keys are in ``infos``.

PettingZoo is an optional extra (``pip install ".[env]"``): only this module imports it.
"""
from __future__ import annotations

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from play.layout import R_SEAT0, REC_SEAT
from play.observation import (OBS_COLOUR, OBS_KIND, OBS_N, OBS_OPTIONS, OBS_PLAYER,
                              OBS_PRIVATE, OBS_PUBLIC, OBS_SIZE, colours_of, observe)
from play.settings import Settings, SettingsError
from play.stepper import Stepper, StrategyAnswers
from simulator.scoring import STEPS, decide
from simulator.state import DECISION_NAMES, MAX_OPTS, TURN

__all__ = ["OBS_COLOUR", "OBS_KIND", "OBS_N", "OBS_OPTIONS", "OBS_PLAYER", "OBS_PRIVATE",
           "OBS_PUBLIC", "OBS_SIZE", "RandomAgent", "StrategyAgent", "SurviveEnv", "env",
           "raw_env"]

_INT32 = np.iinfo(np.int32)
_FIELDS = ("players", "boats", "lagoon_is_sea", "creatures_must_move", "max_turns", "tiebreak",
           "challenges", "dolphins", "squid", "squid_only", "komi", "setup_order")
_KEY = {name: REC_SEAT.index(name) for name in ("score", "rescued", "rescued_value", "turns")}


def agent_name(player: int) -> str:
    return f"seat_{player}"


class SurviveEnv(AECEnv):
    """The AEC environment of one table's settings (every seat is an agent). Build it with
    ``survive_sim.env(...)``, which adds PettingZoo's order-enforcing wrapper."""

    metadata = {"name": "survive_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, render_mode: str | None = None, **fields):
        super().__init__()
        unknown = sorted(set(fields) - set(_FIELDS))
        if unknown:
            raise SettingsError(f"unknown setting {unknown[0]!r}; accepted: "
                                f"{', '.join(_FIELDS)} (every seat is an agent: no strategies)")
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise SettingsError(f"render_mode must be one of None, "
                                f"{', '.join(self.metadata['render_modes'])}; got {render_mode!r}")
        self.render_mode = render_mode
        self.settings = Settings(**fields)
        self.stepper = Stepper(self.settings)
        self.possible_agents = [agent_name(p) for p in range(self.settings.players)]
        self.agents = []
        self._player = self.settings.player_of_seat
        self._colours = {agent_name(p): colours_of(p, self.settings.players,
                                                   self.settings.seats)
                         for p in range(self.settings.players)}
        self.action_spaces = {a: spaces.Discrete(MAX_OPTS) for a in self.possible_agents}
        box = spaces.Box(_INT32.min, _INT32.max, (OBS_SIZE,), np.int32)
        mask = spaces.Box(0, 1, (MAX_OPTS,), np.int8)
        self.observation_spaces = {a: spaces.Dict({"observation": box, "action_mask": mask})
                                   for a in self.possible_agents}
        self.root: int | None = None
        self.game = -1
        self.outcome: dict | None = None

    # ------------------------------------------------------------------------ spaces
    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    # ------------------------------------------------------------------------ the game
    def reset(self, seed: int | None = None, options: dict | None = None):
        """Game 0 of root seed ``seed``; without a seed the next game of the same root (a
        fresh root from the system's entropy the first time). ``options={"game": g}`` picks
        game ``g``; other keys are ignored."""
        game = (options or {}).get("game")
        if game is not None and (not isinstance(game, (int, np.integer))
                                 or isinstance(game, bool) or game < 0):
            raise SettingsError(f"options['game'] must be a game index 0 or more, got {game!r}")
        if seed is not None:
            if (not isinstance(seed, (int, np.integer)) or isinstance(seed, bool)
                    or not 0 <= seed < 2 ** 63):
                raise SettingsError(f"seed must be a whole number 0 to 2**63-1, got {seed!r}")
            self.root, self.game = int(seed), -1
        elif self.root is None:
            self.root = int(np.random.SeedSequence().entropy % (2 ** 63))
        self.game = int(game) if game is not None else self.game + 1
        self.stepper.reset(self.root, self.game)
        self.outcome = None
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._select()

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        q = self.stepper.question
        if (not isinstance(action, (int, np.integer)) or isinstance(action, bool)
                or not 0 <= action < q.n):
            raise ValueError(f"{agent} must answer its {DECISION_NAMES[q.kind]} decision with "
                             f"an option index 0 to {q.n - 1} (see the action mask), got "
                             f"{action!r}")
        self._cumulative_rewards[agent] = 0.0
        self.stepper.answer(int(action))
        if self.stepper.over:
            self._finish()
        else:
            self._select()
        self._accumulate_rewards()
        if self.render_mode == "ansi":
            print(self.render())

    def _select(self):
        q = self.stepper.question
        self.agent_selection = agent_name(self._player[q.seat])
        self.infos[self.agent_selection] = {"decision": DECISION_NAMES[q.kind], "colour": q.seat}

    def _finish(self):
        """The rewards (tie-split win shares) and the final keys, per player."""
        s, row = self.settings, self.stepper.record
        width = len(REC_SEAT)
        keys = {name: np.array([[sum(int(row[R_SEAT0 + c * width + i]) for c in
                                     self._colours[a])
                                 for a in self.possible_agents]], np.int64)
                for name, i in _KEY.items()}
        halves = np.array(s.player_komi_halves, np.int64)
        winners, step = decide(keys["score"], keys["rescued"], keys["rescued_value"],
                               keys["turns"], rule=s.tiebreak, equal=3 in s.challenges,
                               komi=halves)
        won = winners[0]
        share = won / won.sum()
        self.outcome = {"winners": [a for a, w in zip(self.possible_agents, won) if w],
                        "decided_by": STEPS[int(step[0])], "record": row.copy()}
        for p, a in enumerate(self.possible_agents):
            self.rewards[a] = float(share[p])
            self.terminations[a] = True
            self.infos[a] = {"score": int(keys["score"][0, p]),
                             "komi": float(halves[p]) / 2.0,
                             "rescued": int(keys["rescued"][0, p]),
                             "rescued_value": int(keys["rescued_value"][0, p]),
                             "turns": int(keys["turns"][0, p]),
                             "won": bool(won[p]), "share": float(share[p]),
                             "decided_by": self.outcome["decided_by"]}

    # ------------------------------------------------------------------------ what is seen
    def observe(self, agent):
        """``agent``'s honest view (R11): never a hidden cell, never another player's row."""
        q = self.stepper.question
        S = q.state if q is not None else self.stepper.final_state
        obs, mask = observe(S, self.possible_agents.index(agent), self._colours[agent], q)
        return {"observation": obs, "action_mask": mask}

    def state(self) -> np.ndarray:
        """The whole engine state, hidden cells included (for a centralised critic or a
        debugger, never for a seat's policy)."""
        q = self.stepper.question
        return (q.state if q is not None else self.stepper.final_state).copy()

    def render(self):
        """One line of text: the turn, who is asked what (or the result)."""
        if self.render_mode is None:
            return None
        q = self.stepper.question
        if q is None:
            if self.outcome is None:
                return "no game yet: reset first"
            return (f"game {self.game} of seed {self.root} over: "
                    f"{', '.join(self.outcome['winners'])} won "
                    f"(decided by {self.outcome['decided_by']})")
        return (f"game {self.game} of seed {self.root}, turn {int(q.state[TURN])}: "
                f"{agent_name(self._player[q.seat])} (colour {q.seat}) to answer "
                f"{DECISION_NAMES[q.kind]} among {q.n} options")

    def close(self):
        pass


def raw_env(**fields) -> SurviveEnv:
    """The environment without wrappers."""
    return SurviveEnv(**fields)


def env(**fields):
    """The environment as PettingZoo's own games come: order enforced (``step`` before
    ``reset`` is an error)."""
    return wrappers.OrderEnforcingWrapper(raw_env(**fields))


class StrategyAgent:
    """A policy that answers as built-in (or plug-in) strategy ``spec`` answers: the baseline
    an agent is measured against, and the check that the environment is the engine's game (a
    game played by it is that strategy's table row)."""

    def __init__(self, spec: str):
        self.answers = StrategyAnswers(spec)

    def __call__(self, env) -> int:
        return self.answers(env.unwrapped.stepper)


class RandomAgent:
    """A masked random policy: a uniform legal option, from its own seeded generator."""

    def __init__(self, seed: int = 0):
        self.rng = np.random.default_rng(seed)

    def __call__(self, env) -> int:
        obs = env.unwrapped.observe(env.unwrapped.agent_selection)
        return int(self.rng.integers(obs["observation"][OBS_N]))

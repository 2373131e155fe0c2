"""The claims registry (experiments.verdicts.claims): every claim is one record that holds its judge
-- the scopes it compares and the measure it takes -- and every claim has calibration cases
(experiments.verdicts.calibration_cases) run through that claim's own judge. No engine."""
from __future__ import annotations

import inspect

import pytest

from experiments.verdicts import calibration_cases as CC
from experiments.verdicts.claims import CLAIMS, Claim

pytestmark = pytest.mark.engine_free


def test_every_claim_holds_its_scopes_and_measure():
    for cid, c in CLAIMS.items():
        assert isinstance(c, Claim) and c.id == cid
        assert callable(c.scopes) and callable(c.measure), cid
        assert list(inspect.signature(c.scopes).parameters)[:3] == ["cat", "entries", "p"], cid
        assert len(inspect.signature(c.measure).parameters) == 5, cid
        assert c.measures and c.question and c.rule and c.family, cid
        assert all(b in CLAIMS and b != cid for b in c.brings), cid


def test_every_claim_has_calibration_cases():
    """Every claim in CLAIMS has cases (none exempt), each case judged by its own claim, with
    an edge (the truth at the tolerance or threshold: a wrong label on either side) and a case
    where the claim's label is right."""
    cased = {sc.claim for cases in CC.CASES.values() for sc in cases(3.0)}
    assert set(CC.CASES) == cased, "CASES is keyed by the claim its cases judge"
    for cid, cases in CC.CASES.items():
        scs = cases(3.0)
        assert {sc.claim for sc in scs} == {cid}, cid
        assert any(sc.edge and sc.wrong for sc in scs), f"{cid}: no edge case"
        assert any(sc.right for sc in scs), f"{cid}: no case with a right label"
    assert set(CLAIMS) == cased, set(CLAIMS) ^ cased


def test_every_claims_cases_are_judged():
    """Each claim's scopes select its cases' synthetic settings: a small run of every case
    gets a verdict row of its own claim with a scope judged (not "the run holds none")."""
    import numpy as np

    from experiments.verdicts.catalog import from_data
    from experiments.verdicts.table import judge
    rng = np.random.default_rng(3)
    for cid, cases in CC.CASES.items():
        for sc in cases(3.0):
            table = judge(from_data(sc.make(rng, 60)), {cid: sc.params})
            rows = table[table["claim"] == cid]
            assert len(rows) and (rows["n"] > 0).all(), (sc.name, rows["scope"].tolist())

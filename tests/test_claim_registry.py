"""The claims registry (experiments.verdicts.claims): every claim is one record that holds its judge
-- the scopes it compares and the measure it takes -- and every claim has calibration cases
(experiments.verdicts.calibration_cases), or is named here as one still without them. No engine."""
from __future__ import annotations

import inspect

import pytest

from experiments.verdicts import calibration_cases as CC
from experiments.verdicts.claims import CLAIMS, Claim

pytestmark = pytest.mark.engine_free

# claims whose decision rule no calibration case runs through their own judge yet (their rule
# shapes are calibrated on other claims': direction, threshold, both parts, balance)
NOT_YET_CALIBRATED = frozenset({"N3", "T1", "T2", "C6", "E2", "S2", "S4", "T3", "C1", "C2",
                                "C3", "C4", "E1d", "K1", "K3", "L2"})


def test_every_claim_holds_its_scopes_and_measure():
    for cid, c in CLAIMS.items():
        assert isinstance(c, Claim) and c.id == cid
        assert callable(c.scopes) and callable(c.measure), cid
        assert list(inspect.signature(c.scopes).parameters)[:3] == ["cat", "entries", "p"], cid
        assert len(inspect.signature(c.measure).parameters) == 5, cid
        assert c.measures and c.question and c.rule and c.family, cid
        assert all(b in CLAIMS and b != cid for b in c.brings), cid


def test_every_claim_has_calibration_cases_or_is_named_without():
    cased = {sc.claim for cases in CC.CASES.values() for sc in cases(3.0)}
    assert cased <= set(CLAIMS)
    assert set(CC.CASES) == cased, "CASES is keyed by the claim its cases judge"
    for cid, cases in CC.CASES.items():
        assert {sc.claim for sc in cases(3.0)} == {cid}, cid
    assert not NOT_YET_CALIBRATED & cased, "a calibrated claim is still listed as without"
    assert set(CLAIMS) == cased | NOT_YET_CALIBRATED, set(CLAIMS) ^ (cased | NOT_YET_CALIBRATED)

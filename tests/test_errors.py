"""Errors of ours cross process boundaries whole: a worker that raises one does not kill its pool."""
from __future__ import annotations

import pickle
from concurrent.futures import ProcessPoolExecutor

import pytest

from cardrules.interpreter.diagnostics import Diagnostic, RulesError, Span
from cardrules.interpreter.engine import EngineError
from cardrules.interpreter.errors import CardrulesError
from cardrules.interpreter.gamelog import LogError
from cardrules.interpreter.notation import IllegalMoveError


def rules_error() -> RulesError:
    d = Diagnostic("error", "unknown zone 'pile'", Span(3, 5, 3, 9), "declare it under zones", "x.rules")
    return RulesError([d], "a\nb\nplay x to pile\n", {"y.rules": "other"})


@pytest.mark.parametrize("error", [rules_error(), EngineError("round 2 cannot end", "add an end"),
                                   CardrulesError("bad", "fix it", "f:1"), LogError("bad log", "", "log.json"),
                                   IllegalMoveError("no such move")])
def test_every_error_of_ours_pickles_with_its_attributes(error):
    back = pickle.loads(pickle.dumps(error))
    assert type(back) is type(error)
    assert back.args == error.args and back.__dict__ == error.__dict__
    assert back.render() == error.render()


def _raise_rules_error(_) -> None:
    raise rules_error()


def test_a_worker_raising_a_rules_error_leaves_the_pool_working():
    with ProcessPoolExecutor(1) as pool:
        with pytest.raises(RulesError) as raised:
            pool.submit(_raise_rules_error, 0).result(timeout=60)
        assert raised.value.render() == rules_error().render()
        assert pool.submit(abs, -3).result(timeout=60) == 3  # the pool survived

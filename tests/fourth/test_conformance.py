"""The fourth game passes the conformance harness (tests/conformance): every check that takes a case, for every
configuration the harness makes of the game, and the checks that take a game name. The harness parametrizes over
`tabletop.games()` when it is collected, before this game's distribution is on `sys.path`, so its checks are
called here for the game."""

from __future__ import annotations

import inspect

import tabletop
from conformance import test_conformance, test_simultaneous_and_undo, test_single_answer
from conformance.harness import configs, random_playout
from conformance.test_log_words import check_log_words


def _checks(param: str) -> list:
    return [
        f
        for module in (test_conformance, test_simultaneous_and_undo, test_single_answer)
        for name, f in vars(module).items()
        if name.startswith("test_") and callable(f) and list(inspect.signature(f).parameters) == [param]
    ]


def test_every_case_check_of_the_harness_passes_for_the_fourth_game(nines: str) -> None:
    checks = _checks("case")
    assert len(checks) >= 14, [f.__name__ for f in checks]
    cases = configs(nines)
    assert cases == [(2, {}), (2, {"hand": 4})]
    for players, options in cases:
        for check in checks:
            check((nines, players, options))


def test_the_per_game_checks_pass_for_the_fourth_game(nines: str) -> None:
    checks = _checks("game")
    names = {f.__name__ for f in checks}
    assert "test_no_decision_with_a_single_legal_answer_is_asked" in names
    for check in checks:
        check(nines)
    # the property test (hypothesis) takes the game as its one argument too
    test_conformance.test_property_any_action_sequence_conserves_and_replays(nines)
    assert tabletop.game_info(nines).state_class.__module__ == "nines.rules"


def test_the_fourth_game_names_every_actor_in_its_log(nines: str) -> None:
    # the log-words check of the harness (tests/conformance/test_log_words.py), for the game it cannot collect
    for players, options in configs(nines):
        state = random_playout(tabletop.new_game(nines, players, 1, options), 1)
        assert check_log_words(state, players) > 0

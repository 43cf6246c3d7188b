"""Labels checked by rollouts (``analysis.check``): the evaluator proposes a label, paired
rollouts of the two plays from the mover's view confirm or take it back, and the same record
always gets the same labels."""

from __future__ import annotations

from typing import Any

import pytest

from sequence_game.analysis import MISTAKE, Budget, analyze_record
from sequence_game.analysis.check import can_check
from sequence_game.analysis.game import label_of, steps

from .test_analysis import played_record

pytestmark = pytest.mark.skipif(not can_check(), reason="the check needs the compiled engine (fast extra)")


def hard_game(seed: int) -> dict[str, Any]:
    return played_record(seed, ("hard", "hard"))


def test_a_label_stands_only_where_the_rollouts_see_the_loss_too() -> None:
    proposed = checked = 0
    for seed in range(3):
        record = hard_game(seed)
        alone = analyze_record(record, Budget(check=0))
        both = analyze_record(record, Budget())
        assert not alone.labels_checked and both.labels_checked
        _, _, walk = steps(record)
        for plain, m, step in zip(alone.moves, both.moves, walk, strict=True):
            assert (plain.loss, plain.after, plain.luck) == (m.loss, m.after, m.luck)  # only labels change
            if plain.label in ("mistake", "blunder", "missed block"):
                proposed += 1
                assert m.checked_loss is not None
                assert m.label == label_of(step.state.view(step.seat), step.action, m.checked_loss)
                checked += m.label is not None
            else:
                assert m.checked_loss is None and m.label == plain.label
    assert proposed >= 3  # the evaluator proposes labels in these games ...
    assert checked < proposed  # ... and the rollouts take some of them back


def test_the_same_record_gets_the_same_checked_labels() -> None:
    record = hard_game(1)
    one, two = analyze_record(record).to_json(), analyze_record(record).to_json()
    assert [(m["label"], m["checked_loss"]) for m in one["moves"]] == [
        (m["label"], m["checked_loss"]) for m in two["moves"]
    ]
    assert any(m["checked_loss"] is not None for m in one["moves"]) and one["labels_checked"]


def test_a_checked_mistake_lost_at_least_a_mistakes_worth_by_the_rollouts() -> None:
    result = analyze_record(hard_game(2))
    for m in result.moves:
        if m.label in ("mistake", "blunder"):
            assert m.checked_loss is not None and m.checked_loss >= MISTAKE


def test_a_negative_check_is_refused() -> None:
    with pytest.raises(ValueError, match="check"):
        Budget(check=-1)


@pytest.mark.parametrize("players", [2, 3, 6])
def test_the_check_reads_the_other_hands_up_to_four_players(players: int) -> None:
    """R5.2 plays of a mid-game decision, checked with the default dealing: the expert's reading
    of the other hands up to 4 players (where it was measured), the view alone at more."""
    from sequence_game import GameConfig, new_game
    from sequence_game.actions import DEAD
    from sequence_game.analysis.check import rollout_loss
    from sequence_game.bots import make_bot

    state = new_game(GameConfig(players=players), seed=5)
    bots = [make_bot("hard", seed=s) for s in range(players)]
    for _ in range(6 * players):
        seat = state.current_seat
        state.apply(bots[seat].select_action(state.view(seat)), seat)
    seat = state.current_seat
    plays = [a for a in state.legal_actions(seat) if a < DEAD]
    best, played = plays[0], plays[-1]
    default = rollout_loss(state, seat, best, played, 64, 7)
    read = rollout_loss(state, seat, best, played, 64, 7, reading=True)
    alone = rollout_loss(state, seat, best, played, 64, 7, reading=False)
    assert default == (read if players <= 4 else alone)
    assert default == rollout_loss(state, seat, best, played, 64, 7)  # the same every time

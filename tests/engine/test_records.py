"""Game records (docs/record-format.md): the example records, golden games, round trips and bad input."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sequence_game import GameConfig, new_game
from sequence_game.commands.validate import run as validate_run  # noqa: F401  (import check)
from sequence_game.records import RecordError, dumps, replay, write_record

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
EXAMPLES = sorted(p for p in (FIXTURES / "examples").glob("*.json") if not p.name.endswith(".expected.json"))
GOLDEN = sorted(p for p in (FIXTURES / "golden").glob("*.json") if not p.name.endswith(".expected.json"))


def expected(path: Path) -> dict[str, object]:
    return json.loads(path.with_name(path.stem + ".expected.json").read_text())  # type: ignore[no-any-return]


@pytest.mark.parametrize("path", EXAMPLES + GOLDEN, ids=lambda p: p.stem)
def test_records_replay_to_their_expected_verdict(path: Path) -> None:
    summary = replay(path).summary()
    want = expected(path)
    assert {k: summary.get(k) for k in want} == want


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_records_write_back_identically(path: Path) -> None:
    result = replay(path)
    assert dumps(result.state) == path.read_text()


@pytest.mark.parametrize("players", [2, 3, 4, 6, 8, 9, 10, 12])
def test_a_written_record_replays_to_the_same_state(players: int) -> None:
    import random

    state = new_game(GameConfig(players=players), seed=players)
    state.playout(random.Random(players))
    again = replay(json.dumps(write_record(state))).state
    assert again.history == state.history
    for seat in range(players):
        assert again.view(seat) == state.view(seat)


def test_the_first_illegal_action_is_named_with_its_rule() -> None:
    result = replay(FIXTURES / "examples" / "illegal-occupied-space.json")
    assert (result.ok, result.index, result.rule) == (False, 42, "R5.2")
    assert result.error and "already holds a chip" in result.error


def _example() -> dict:  # type: ignore[type-arg]
    return json.loads((FIXTURES / "examples" / "three-players-one-sequence.json").read_text())  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda r: r.pop("deck"), "missing field 'deck'"),
        (lambda r: r.update(format="chess"), "format"),
        (lambda r: r.update(players=5), "R2.1"),
        (lambda r: r.update(teams=2), "R2.2"),
        (lambda r: r["deck"].__setitem__(0, "zz"), "not a card"),
        (lambda r: r["deck"].pop(), "R1.2"),
        (lambda r: r.update(dealer=7), "R4.1"),
        (lambda r: r["actions"].__setitem__(0, "7h"), "expected an object"),
        (lambda r: r["actions"][0].update(cell=[10, 0]), "cell"),
        (lambda r: r.update(actions={}), "actions must be a list"),
    ],
)
def test_malformed_records_get_a_clear_error(mutate, message) -> None:  # type: ignore[no-untyped-def]
    record = _example()
    mutate(record)
    with pytest.raises(RecordError, match=message):
        replay(record)


def test_not_json_is_a_record_error() -> None:
    with pytest.raises(RecordError, match="not valid JSON"):
        replay("{nope")
    with pytest.raises(RecordError, match="JSON object"):
        replay("[1, 2]")


def test_a_stated_result_that_disagrees_is_refused() -> None:
    record = _example()
    record["result"]["winner"] = 0
    result = replay(record)
    assert not result.ok and result.rule == "result"


def test_R5_4_a_reshuffle_where_the_pile_is_not_empty_is_refused() -> None:
    record = _example()
    record["actions"].insert(3, {"reshuffle": ["2s"]})
    result = replay(record)
    assert (result.ok, result.index, result.rule) == (False, 3, "R5.4")


def test_R5_4_a_reshuffle_that_is_not_the_discards_is_refused() -> None:
    record = json.loads((FIXTURES / "examples" / "two-players-reshuffle.json").read_text())
    at = next(i for i, a in enumerate(record["actions"]) if "reshuffle" in a)
    record["actions"][at]["reshuffle"][0] = "as" if record["actions"][at]["reshuffle"][0] != "as" else "ks"
    result = replay(record)
    assert (result.ok, result.index, result.rule) == (False, at, "R5.4")


def run_cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sequence_game", *args],
        capture_output=True,
        text=True,
        input=stdin,
        check=False,
    )


def test_cli_validate_json_for_each_example() -> None:
    for path in EXAMPLES:
        out = run_cli("validate", "--json", str(path))
        data = json.loads(out.stdout)
        want = expected(path)
        assert {k: data.get(k) for k in want} == want
        assert out.returncode == (0 if want["ok"] else 1)
        assert {"ok", "over", "winner", "sequences"} <= data.keys()


def test_cli_validate_malformed_record_exits_non_zero_without_traceback(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "sequence-record/1", "players": 2')
    out = run_cli("validate", str(bad))
    assert out.returncode == 2
    assert "malformed record" in out.stderr and "Traceback" not in out.stderr
    out = run_cli("validate", "--json", str(tmp_path / "missing.json"))
    assert out.returncode == 2 and json.loads(out.stdout)["ok"] is False
    out = run_cli("validate", "-", stdin="[]")
    assert out.returncode == 2 and "Traceback" not in out.stderr


def test_cli_validate_human_output() -> None:
    out = run_cli("validate", str(FIXTURES / "examples" / "two-players-reshuffle.json"))
    assert out.returncode == 0
    assert "side 1 wins" in out.stdout

"""Reading records (issue 20): the end of a game, malformed input, strict form, the rule named, and
``sequence validate`` over many files. Reader notes: docs/records.md."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from sequence_game import GameConfig, IllegalActionError, new_game
from sequence_game.records import RecordError, load, replay, write_record
from sequence_game.tui.plain import run_plain_replay

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
EXAMPLES = FIXTURES / "examples"


def example(name: str) -> dict[str, Any]:
    return json.loads((EXAMPLES / f"{name}.json").read_text())  # type: ignore[no-any-return]


def verdict(source: Any) -> tuple[str, str | None]:
    """('ok' | 'illegal' | 'malformed', the rule or the message); anything else raised fails."""
    try:
        result = replay(source)
    except RecordError as exc:
        return "malformed", str(exc)
    return ("ok", None) if result.ok else ("illegal", result.rule)


def stuck_game() -> dict[str, Any]:
    """A drawn game whose last discard finds the draw pile empty (see test_stuck)."""
    state = new_game(GameConfig(players=6, teams=3), seed=1713)
    state.playout(random.Random(1713))
    return write_record(state)


# ----------------------------------------------------------------------- 1. nothing after the end


def test_R7_1_a_reshuffle_recorded_after_a_stuck_end_is_refused() -> None:
    # what the old engine wrote: the discard piles reshuffled after the last discard
    record = stuck_game()
    state = replay(record).state
    pool = [c for s in range(state.players) for c in state.discard_pile(s)]
    from sequence_game.cards import card_name

    record["actions"].append({"reshuffle": [card_name(c) for c in pool]})
    del record["result"]
    result = replay(record)
    assert (result.ok, result.index, result.rule) == (False, len(record["actions"]) - 1, "R7.1")


def test_R7_1_an_action_after_the_end_is_refused() -> None:
    for record in (stuck_game(), example("three-players-one-sequence")):
        record["actions"].append({"seat": 0, "draw": True})
        result = replay(record)
        assert (result.ok, result.index, result.rule) == (False, len(record["actions"]) - 1, "R7.1")


def test_a_drawn_game_written_without_a_reshuffle_after_the_end_is_accepted() -> None:
    record = stuck_game()
    assert "reshuffle" not in record["actions"][-1]
    result = replay(json.dumps(record))
    assert result.ok and result.summary()["end"] == "stuck" and result.summary()["winner"] is None


# ----------------------------------------------------------------------- 2. malformed input


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[" * 5000 + "]" * 5000, "nested more than 32 deep"),
        ('{"x": ' + "[" * 100_000 + "]" * 100_000 + "}", "nested more than 32 deep"),
        ('{"players": ' + "9" * 5000 + "}", "5000 digits"),
        ('{"players": -' + "9" * 19 + "}", "19 digits"),
        ('{"players": NaN}', "NaN is not a JSON value"),
        ('{"players": Infinity}', "Infinity"),
        ('{"players": 2, "players": 3}', "appears twice"),
        ("", "not valid JSON"),
        ("\ufeff\ufeff{}", "not valid JSON"),
    ],
)
def test_malformed_json_is_a_one_line_record_error(text: str, message: str) -> None:
    with pytest.raises(RecordError, match=message) as err:
        load(text)
    assert len(str(err.value).splitlines()) == 1 and len(str(err.value)) < 300


def test_the_nesting_limit_is_the_same_at_any_stack_depth() -> None:
    def nested(depth: int) -> str:
        return '{"x": ' + "[" * depth + "]" * depth + "}"

    def answer_at(stack: int, depth: int) -> str:
        """What ``load`` says when called ``stack`` frames deep (the decoder's own limit moves)."""
        if stack:
            return answer_at(stack - 1, depth)
        try:
            load(nested(depth))
        except RecordError as exc:
            return str(exc)
        return "ok"

    for stack in (0, 300, 800):
        assert answer_at(stack, 31) == "ok"  # the object and 31 lists: 32 levels
        assert answer_at(stack, 32) == "nested more than 32 deep"
        assert answer_at(stack, 900) == "nested more than 32 deep"


def test_bytes_must_be_utf8() -> None:
    with pytest.raises(RecordError, match="not UTF-8"):
        load(b'{"a": "\xff"}')
    with pytest.raises(RecordError, match="not UTF-8"):
        load('{"format": 1}'.encode("utf-16"))


def test_a_utf8_byte_order_mark_is_accepted() -> None:
    text = (EXAMPLES / "three-players-one-sequence.json").read_text()
    assert verdict("\ufeff" + text) == ("ok", None)
    assert verdict(b"\xef\xbb\xbf" + text.encode()) == ("ok", None)


def test_huge_values_are_quoted_short_in_messages() -> None:
    record = example("three-players-one-sequence")
    record["deck"][3] = "x" * 1_000_000
    kind, message = verdict(record)
    assert kind == "malformed" and message is not None and len(message) < 200
    record = example("three-players-one-sequence")
    record["actions"][0]["seat"] = 10**5000  # a dict from Python code: no JSON limit applied
    kind, message = verdict(record)
    assert kind == "malformed" and message is not None and "digits" in message and len(message) < 200


def test_unreadable_paths_are_record_errors(tmp_path: Path) -> None:
    for path in (tmp_path / "missing.json", tmp_path, Path("/dev/zero"), Path("bad\0name")):
        with pytest.raises(RecordError) as err:
            load(path)
        assert len(str(err.value).splitlines()) == 1


# ----------------------------------------------------------------------- 4. strict form


def mutated(change: Any) -> dict[str, Any]:
    record = example("three-players-one-sequence")
    change(record)
    return record


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r["actions"][0].update(draw=True), "one kind, this one has draw and play"),
        (lambda r: r["actions"][0].update(dead="7h"), "one kind"),
        (lambda r: r["actions"][0].pop("cell"), "missing field 'cell'"),
        (lambda r: r["actions"].insert(0, {"seat": 0}), "no action"),
        (lambda r: r["actions"].insert(0, {"penalty": 0, "seat": 1}), "belongs to no seat"),
        (lambda r: r["actions"].insert(0, {"seat": 0, "draw": 1}), "draw: must be true"),
        (lambda r: r["actions"][0].update(card=" " + r["actions"][0]["card"]), "not a card code"),
        (lambda r: r["actions"][0].update(card=r["actions"][0]["card"] + "\n"), "not a card code"),
        (lambda r: r["deck"].__setitem__(0, "\t" + r["deck"][0]), "not a card code"),
        (lambda r: r["deck"].__setitem__(0, "\u212a" + r["deck"][0][1]), "not a card code"),  # Kelvin K
        (lambda r: r["result"].update(winner=True), "result.winner: expected an integer"),
        (lambda r: r["result"].update(winner=2.0), "result.winner: expected an integer"),
        (lambda r: r["result"].update(sequences=[0, 0, 1.0]), r"result.sequences\[2\]"),
        (lambda r: r["result"].update(end="won"), "result.end"),
        (lambda r: r.update(result=[]), "result: expected an object"),
        (lambda r: r.update(players=3.0), "players: expected an integer"),
        (lambda r: r.update(teams=True), "teams: expected an integer"),
        (lambda r: r.update(dealer=2.0), "dealer: expected an integer"),
        (lambda r: r.update(draw=["auto"]), "draw: expected 'auto' or 'manual'"),
        (lambda r: r["actions"][0].update(seat=1.0), r"actions\[0\].seat: expected an integer"),
        (lambda r: r["actions"][0].update(cell=[2.0, 3]), "a cell is"),
    ],
)
def test_strict_records_refuse_what_the_format_does_not_allow(change: Any, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        replay(mutated(change))


def test_a_fault_in_form_after_an_illegal_action_is_still_malformed() -> None:
    record = example("illegal-occupied-space")
    record["actions"][60]["card"] = "7h "
    assert verdict(record)[0] == "malformed"


def test_what_the_format_allows_is_accepted() -> None:
    record = mutated(lambda r: r.update(deck=[c.upper() for c in r["deck"]], note={"by": "me"}))
    record["actions"][0]["time"] = 1.5  # fields the format does not define are ignored
    record["result"] = None
    assert verdict(record) == ("ok", None)


# ----------------------------------------------------------------------- 3. which rule is named


def test_R4_3_whose_turn_comes_before_the_card_and_the_cell() -> None:
    record = example("three-players-one-sequence")
    first = record["actions"][0]
    first["seat"] = (first["seat"] + 1) % 3
    first["cell"] = [0, 1] if first["cell"] != [0, 1] else [0, 2]  # not where that card is printed
    result = replay(record)
    assert (result.index, result.rule) == (0, "R4.3")


def test_R6_1_while_a_fine_is_owed_any_other_action_names_R6_1() -> None:
    base = example("four-players-manual-penalty")
    at = next(i for i, a in enumerate(base["actions"]) if "penalty" in a) + 1
    payer = base["actions"][at]["seat"]
    for action in (
        {"seat": payer, "card": "7h", "cell": [0, 1]},  # the payer plays, on a cell not showing 7h
        {"seat": (payer + 1) % 4, "card": "7h", "cell": [0, 1]},  # another seat plays
        {"seat": (payer + 1) % 4, "draw": True},
        {"seat": payer, "dead": "7h"},
    ):
        record = copy.deepcopy(base)
        record["actions"][at] = action
        result = replay(record)
        assert (result.index, result.rule) == (at, "R6.1"), action


def test_R4_3_an_unreadable_action_by_the_wrong_seat_names_the_turn() -> None:
    state = new_game(GameConfig(players=2), seed=3)
    with pytest.raises(IllegalActionError) as err:
        state.apply("7h@a0", seat=1 - state.current_seat)  # 7h is not printed on a0 either
    assert err.value.rule == "R4.3"


# ----------------------------------------------------------------------- 5. many files at once


def run_cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sequence_game", *args],
        capture_output=True,
        text=True,
        input=stdin,
        check=False,
    )


def test_validate_many_files_one_json_line_each_and_the_worst_status(tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 5000 + "]" * 5000)
    big = tmp_path / "big.json"
    big.write_text('{"players": ' + "9" * 5000 + "}")
    legal = EXAMPLES / "two-players-reshuffle.json"
    illegal = EXAMPLES / "illegal-occupied-space.json"
    out = run_cli("validate", "--json", str(legal), str(illegal), str(deep), str(big))
    assert out.returncode == 2 and out.stderr == ""
    lines = [json.loads(line) for line in out.stdout.splitlines()]
    assert [line["file"] for line in lines] == [str(legal), str(illegal), str(deep), str(big)]
    assert [line["ok"] for line in lines] == [True, False, False, False]
    assert (lines[1]["index"], lines[1]["rule"]) == (42, "R5.2")
    assert lines[2]["malformed"] and "nested more than 32 deep" in lines[2]["error"]
    assert lines[3]["malformed"] and "digits" in lines[3]["error"]
    assert run_cli("validate", "--json", str(legal), str(illegal)).returncode == 1
    assert run_cli("validate", str(legal), str(legal)).returncode == 0


def test_validate_exits_2_without_a_traceback_on_deep_nesting_and_huge_integers(tmp_path: Path) -> None:
    for text in ("[" * 5000 + "]" * 5000, '{"format": "sequence-record/1", "players": ' + "1" * 4301 + "}"):
        path = tmp_path / "bad.json"
        path.write_text(text)
        out = run_cli("validate", str(path))
        assert out.returncode == 2 and "Traceback" not in out.stderr
        assert len(out.stderr.splitlines()) == 1 and out.stderr.startswith("malformed record: ")


def test_validate_human_lines_name_each_file() -> None:
    legal = EXAMPLES / "two-players-reshuffle.json"
    illegal = EXAMPLES / "illegal-occupied-space.json"
    out = run_cli("validate", str(legal), str(illegal))
    assert out.returncode == 1
    first, second = out.stdout.splitlines()
    assert first.startswith(f"{legal}: valid record") and second.startswith(f"{illegal}: illegal action 42")


# ----------------------------------------------------------------------- other readers


def test_play_replay_refuses_malformed_records_with_one_line(tmp_path: Path) -> None:
    import io

    for text in ("[" * 5000 + "]" * 5000, '{"players": ' + "9" * 5000 + "}", "\ufeff{"):
        path = tmp_path / "bad.json"
        path.write_text(text)
        out = io.StringIO()
        assert run_plain_replay(path, io.StringIO(""), out) == 2
        assert len(out.getvalue().splitlines()) == 1 and out.getvalue().startswith("cannot replay")


# ------------------------------------------------------------------- issue 45: files and records


def test_a_named_pipe_nobody_writes_to_is_refused_not_waited_on(tmp_path: Path) -> None:
    import os

    fifo = tmp_path / "x.json"
    os.mkfifo(fifo)
    proc = subprocess.run(
        [sys.executable, "-m", "sequence_game", "validate", str(fifo)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 2 and "nothing was written to the pipe" in proc.stderr + proc.stdout


def test_a_pipe_with_data_is_read() -> None:
    import os

    text = (EXAMPLES / "two-players-reshuffle.json").read_bytes()
    read_end, write_end = os.pipe()
    proc = subprocess.Popen(
        [sys.executable, "-m", "sequence_game", "validate", f"/dev/fd/{read_end}"],
        pass_fds=(read_end,),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    os.close(read_end)
    with os.fdopen(write_end, "wb") as pipe:
        pipe.write(text)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    assert out.startswith("valid record")


@pytest.mark.parametrize("field", ["teams", "draw"])
def test_a_record_without_teams_or_draw_is_malformed(field: str) -> None:
    """Read as 2 sides and automatic draw, a 6-player 3-side record was "illegal, R5.2" and a
    manual game "illegal, R5.3"; a 4-player record without ``teams`` passed."""
    record = example("four-players-manual-penalty")
    del record[field]
    kind, message = verdict(record)
    assert kind == "malformed" and field in str(message)


@pytest.mark.parametrize(
    ("result", "message"),
    [
        ({"winner": 5}, "result.winner: 5 is not a side"),
        ({"winner": 0, "sequences": [2, 0, 0]}, "result.sequences: 3 counts for 2 sides"),
        ({"sequences": [-1, 2]}, "below zero"),
    ],
)
def test_a_result_no_game_could_have_is_malformed(result: dict[str, Any], message: str) -> None:
    record = example("two-players-reshuffle")
    record["result"] = {**record["result"], **result}
    kind, text = verdict(record)
    assert kind == "malformed" and message in str(text)


def test_a_reshuffle_before_the_draw_that_needs_it_is_named_for_what_it_is() -> None:
    record = example("two-players-reshuffle")
    at = next(i for i, a in enumerate(record["actions"]) if "reshuffle" in a)
    moved = copy.deepcopy(record)
    entry = moved["actions"].pop(at)
    moved["actions"].insert(at - 1, entry)  # before the action that found the pile empty
    result = replay(moved)
    assert not result.ok and result.rule == "R5.4"
    assert "not empty" not in str(result.error) or result.state.deck_size > 0


def test_a_file_name_with_a_line_break_keeps_the_error_on_one_line(tmp_path: Path) -> None:
    import io

    out = io.StringIO()
    assert run_plain_replay(tmp_path / "a\nb.json", io.StringIO(""), out) == 2
    assert out.getvalue().count("\n") == 1 and "a\\nb.json" in out.getvalue()


def test_analyze_checks_the_chart_folder_before_it_analyses(tmp_path: Path) -> None:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "sequence_game",
            "analyze",
            "--chart",
            str(tmp_path / "missing" / "chances.png"),
            str(EXAMPLES / "two-players-reshuffle.json"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 2 and "does not exist" in proc.stderr
    assert "analysing" not in proc.stderr

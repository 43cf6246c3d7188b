"""Properties and fuzzing of the record reader (issue 20): whatever it is fed, it answers ok,
illegal (a rule) or malformed (a one-line ``RecordError``), and nothing else ever escapes."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sequence_game import GameConfig, new_game
from sequence_game.cards import card_name
from sequence_game.config import TEAM_OPTIONS
from sequence_game.records import MAX_DEPTH, RecordError, replay, write_record

EXAMPLES = Path(__file__).resolve().parent.parent / "fixtures" / "examples"
RECORDS = {
    p.stem: json.loads(p.read_text()) for p in EXAMPLES.glob("*.json") if not p.stem.endswith(".expected")
}
SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def answer(source: Any) -> str:
    """'ok', 'illegal' or 'malformed'; any other exception fails the test that calls it."""
    try:
        result = replay(source)
    except RecordError as exc:
        message = str(exc)
        assert message and len(message.splitlines()) == 1 and len(message) < 400, message
        message.encode("utf-8")  # printable as it is
        return "malformed"
    if result.ok:
        return "ok"
    assert result.rule and result.error is not None
    return "illegal"


json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8)
    | st.sampled_from(["7h", "JD", "js", "2s", "auto", "manual", "sequence-record/1", "stuck"])
)
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.dictionaries(
            st.sampled_from(["seat", "card", "cell", "dead", "discard", "draw", "penalty", "reshuffle", "x"]),
            inner,
            max_size=4,
        )
    ),
    max_leaves=20,
)


# ----------------------------------------------------------------------------- fuzz


@SETTINGS
@given(st.binary(max_size=300))
def test_fuzz_random_bytes_get_one_of_three_answers(data: bytes) -> None:
    assert answer(data) in ("ok", "illegal", "malformed")


@SETTINGS
@given(json_values)
def test_fuzz_random_json_gets_one_of_three_answers(value: Any) -> None:
    assert answer(json.dumps(value)) in ("ok", "illegal", "malformed")
    assert answer(
        {"format": "sequence-record/1", "players": 2, "dealer": 0, "deck": [], "actions": value}
    ) in (
        "illegal",
        "malformed",
    )


def _locations(record: dict[str, Any]) -> list[tuple[Any, Any]]:
    """(container, key) pairs for every value inside a record, nested ones included."""
    out: list[tuple[Any, Any]] = []
    stack: list[Any] = [record]
    while stack:
        node = stack.pop()
        keys = list(node) if isinstance(node, dict) else range(len(node))
        for key in keys:
            out.append((node, key))
            if isinstance(node[key], (dict, list)):
                stack.append(node[key])
    return out


@SETTINGS
@given(st.sampled_from(sorted(RECORDS)), st.data())
def test_fuzz_a_record_with_random_values_in_random_places_gets_one_of_three_answers(
    name: str, data: st.DataObject
) -> None:
    record = copy.deepcopy(RECORDS[name])
    for _ in range(data.draw(st.integers(min_value=1, max_value=3), label="changes")):
        places = _locations(record)
        node, key = places[data.draw(st.integers(min_value=0, max_value=len(places) - 1), label="place")]
        if isinstance(node, list) and data.draw(st.booleans(), label="delete"):
            del node[key]
        else:
            node[key] = data.draw(json_values, label="value")
    text = json.dumps(record)
    cut = data.draw(st.integers(min_value=0, max_value=len(text)), label="cut")
    assert answer(text) in ("ok", "illegal", "malformed")
    assert answer(record) in ("ok", "illegal", "malformed")
    assert answer(text[:cut]) in ("ok", "illegal", "malformed")


# ----------------------------------------------------------------------------- 2. malformed JSON


@settings(max_examples=40, deadline=None)
@given(
    st.integers(min_value=1, max_value=50_000),
    st.sampled_from(["[", '{"a":', "[1,"]),
    st.sampled_from(['"deck": ', '"players": ', '"seat": ', '"winner": ']),
)
def test_nesting_beyond_the_limit_is_malformed_at_any_depth_and_in_any_field(
    depth: int, opener: str, field: str
) -> None:
    closer = {"[": "]", '{"a":': "}", "[1,": "]"}[opener]
    record = json.dumps(RECORDS["two-players-reshuffle"])
    # a field the format does not define (so otherwise ignored), nested ``depth`` deep, in the
    # record itself, in its first action or in its result
    text = record.replace(field, '"extra": ' + opener * depth + "0" + closer * depth + ", " + field, 1)
    # the levels the extra field sits at: the record (1), its result (2), its first action (3)
    level = {'"deck": ': 1, '"players": ': 1, '"winner": ': 2, '"seat": ': 3}[field]
    assert answer(text) == ("malformed" if level + depth > MAX_DEPTH else "ok")


@settings(max_examples=40, deadline=None)
@given(
    st.integers(min_value=19, max_value=6_000),
    st.sampled_from(['"players": ', '"dealer": ', '"seat": ', '"penalty": ', '"winner": ']),
    st.booleans(),
)
def test_integers_longer_than_any_in_a_record_are_malformed(digits: int, field: str, negative: bool) -> None:
    record = json.dumps(RECORDS["four-players-manual-penalty"])
    assert field in record
    number = ("-" if negative else "") + "7" * digits
    text = record.replace(field, field + number + ', "_": ', 1)
    assert answer(text) == "malformed"


# ----------------------------------------------------------------------------- 4. strict form

KINDS = {"draw": True, "dead": "7h", "discard": "7h", "penalty": 0, "reshuffle": ["7h"], "card": "7h"}


@SETTINGS
@given(st.sampled_from(sorted(RECORDS)), st.data())
def test_an_action_with_two_kinds_is_malformed(name: str, data: st.DataObject) -> None:
    record = copy.deepcopy(RECORDS[name])
    action = data.draw(st.sampled_from(record["actions"]), label="action")
    present = {"card" if k == "cell" else k for k in action if k in KINDS or k == "cell"}
    extra = data.draw(st.sampled_from(sorted(set(KINDS) - present)), label="second kind")
    action[extra] = KINDS[extra]
    assert answer(record) == "malformed"


@SETTINGS
@given(
    st.sampled_from(sorted(RECORDS)),
    st.data(),
    st.text(alphabet=" \t\n\r\x0b\x0c\u00a0\u2028\u3000", min_size=1, max_size=3),
    st.booleans(),
)
def test_a_card_code_with_space_around_it_is_malformed(
    name: str, data: st.DataObject, space: str, before: bool
) -> None:
    record = copy.deepcopy(RECORDS[name])
    places = [(record["deck"], i) for i in range(len(record["deck"]))]
    for action in record["actions"]:
        places.extend((action, key) for key in ("card", "dead", "discard") if key in action)
        if "reshuffle" in action:
            places += [(action["reshuffle"], i) for i in range(len(action["reshuffle"]))]
    node, key = data.draw(st.sampled_from(places), label="card")
    node[key] = space + node[key] if before else node[key] + space
    assert answer(record) == "malformed"
    assert answer(json.dumps(record)) == "malformed"


COUNT_FIELDS = ["players", "teams", "dealer", "seat", "penalty", "winner", "sequences", "cell"]


@SETTINGS
@given(st.sampled_from(sorted(RECORDS)), st.sampled_from(COUNT_FIELDS), st.data())
def test_a_float_or_a_bool_where_a_count_belongs_is_malformed(
    name: str, field: str, data: st.DataObject
) -> None:
    record = copy.deepcopy(RECORDS[name])
    holders: list[dict[str, Any]] = [record, *record["actions"]]
    if isinstance(record.get("result"), dict):
        holders.append(record["result"])
    places = [h for h in holders if isinstance(h.get(field), (int, list))]
    if not places:
        return  # e.g. no penalty in this record
    holder = data.draw(st.sampled_from(places), label="holder")
    as_bool = data.draw(st.booleans(), label="bool")

    def spoil(n: int) -> Any:
        return bool(n % 2) if as_bool else float(n)

    value = holder[field]
    if isinstance(value, list):
        i = data.draw(st.integers(min_value=0, max_value=len(value) - 1), label="index")
        value[i] = spoil(value[i])
    else:
        holder[field] = spoil(value)
    assert answer(record) == "malformed"
    assert answer(json.dumps(record)) == "malformed"


# ----------------------------------------------------------------------------- 1. the end of a game

CONFIGS = [
    GameConfig(players=p, teams=t, draw=d)
    for p, ts in TEAM_OPTIONS.items()
    for t in ts
    for d in ("auto", "manual")
]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(CONFIGS), st.integers(min_value=0, max_value=2**32 - 1), st.data())
def test_a_finished_games_record_replays_and_nothing_may_follow_its_end(
    config: GameConfig, seed: int, data: st.DataObject
) -> None:
    state = new_game(config, seed=seed)
    state.playout(random.Random(seed))
    record = write_record(state)
    assert answer(record) == "ok"
    final = replay(record).state
    assert final.history == state.history
    pool = [card_name(c) for s in range(state.players) for c in state.discard_pile(s)]
    extra = data.draw(
        st.sampled_from(
            [
                {"reshuffle": pool},
                {"seat": state.seat_to_play, "draw": True},
                {"seat": state.seat_to_play, "discard": card_name(state.hand(state.seat_to_play)[0])}
                if state.hand(state.seat_to_play)
                else {"penalty": 0},
            ]
        ),
        label="after the end",
    )
    record["actions"].append(extra)
    del record["result"]
    result = replay(record)
    assert (result.ok, result.index, result.rule) == (False, len(record["actions"]) - 1, "R7.1")

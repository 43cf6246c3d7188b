"""``POST /api/replay`` with malformed records (issue 20): a clear one-line refusal, never a 500."""

from __future__ import annotations

import json
import random
from pathlib import Path

import httpx
import pytest

from sequence_game import GameConfig, new_game
from sequence_game.records import write_record

from .conftest import Server

EXAMPLES = Path(__file__).resolve().parent.parent / "fixtures" / "examples"
GOOD = (EXAMPLES / "three-players-one-sequence.json").read_bytes()


def post(server: Server, body: bytes) -> httpx.Response:
    return httpx.post(
        f"{server.http}/api/replay", content=body, headers={"Content-Type": "application/json"}, timeout=30
    )


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        (b"[" * 5000 + b"]" * 5000, "nested more than 32 deep"),
        (b'{"players": ' + b"9" * 5000 + b"}", "5000 digits"),
        (b'{"a": "\xff\xfe"}', "not UTF-8"),
        (b"\x00\x01garbage", "not valid JSON"),
        (b'{"players": NaN}', "NaN"),
        (GOOD.replace(b'"seat": 0, "card"', b'"seat": 0, "draw": true, "card"', 1), "one kind"),
        (GOOD.replace(b'"players": 3', b'"players": 3.0', 1), "players: expected an integer"),
    ],
    ids=["deep", "huge-int", "not-utf8", "garbage", "nan", "two-kinds", "float-count"],
)
def test_malformed_uploads_get_a_clear_one_line_refusal(server: Server, body: bytes, reason: str) -> None:
    response = post(server, body)
    assert response.status_code == 400, response.text  # malformed: 400, never a 500 or a 422
    answer = response.json()
    assert answer["code"] in ("bad_json", "bad_record")
    detail = answer["message"]
    assert reason in detail and len(detail.splitlines()) == 1


def test_an_illegal_but_well_formed_record_is_a_422(server: Server) -> None:
    record = json.loads(GOOD)
    record["actions"][0]["cell"] = [0, 0]  # a corner: no card is played there
    response = post(server, json.dumps(record).encode())
    assert response.status_code == 422, response.text
    assert "illegal record at action 0" in response.json()["message"]


def test_a_byte_order_mark_is_accepted(server: Server) -> None:
    response = post(server, b"\xef\xbb\xbf" + GOOD)
    assert response.status_code == 200 and response.json()["frames"]


def test_a_drawn_game_ending_on_an_empty_pile_replays(server: Server) -> None:
    # the last discard of the stuck round finds the draw pile empty: nothing may be drawn after it
    state = new_game(GameConfig(players=6, teams=3), seed=1713)
    state.playout(random.Random(1713))
    response = post(server, json.dumps(write_record(state)).encode())
    assert response.status_code == 200, response.text
    assert response.json()["frames"][-1]["termination"] == "stuck"

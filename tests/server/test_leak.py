"""No channel carries another player's cards: every message each seat's socket receives during a
whole 4-player game is checked against the true hands, rebuilt afterwards from the game's record."""

from __future__ import annotations

import random
import re
from typing import Any

from sequence_game.cards import card_name
from sequence_game.records import replay

from .conftest import Client, Server

CARD = r"[2-9tjqka][shdc]"
CODE_IN_TEXT = re.compile(rf"(?<![a-z0-9])({CARD})(?![a-z0-9])")


def card_codes(obj: Any, skip_hand: bool = True) -> set[str]:
    """Every card code anywhere in a message (exact values, action names and free text)."""
    found: set[str] = set()
    if isinstance(obj, dict):
        for key, value in obj.items():
            if skip_hand and key == "hand":
                continue
            found |= card_codes(value, skip_hand)
    elif isinstance(obj, list):
        for value in obj:
            found |= card_codes(value, skip_hand)
    elif isinstance(obj, str):
        found |= set(CODE_IN_TEXT.findall(obj.lower()))
    return found


def truth_by_step(record: dict[str, Any]) -> list[tuple[list[list[str]], set[str]]]:
    """After k actions: every seat's true hand, and every card ever shown face up."""
    entries = record["actions"]
    ends = [0] + [i + 1 for i, e in enumerate(entries) if "reshuffle" not in e]
    out = []
    for end in ends:
        while end < len(entries) and "reshuffle" in entries[end]:
            end += 1
        prefix = {k: v for k, v in record.items() if k != "result"}
        prefix["actions"] = entries[:end]
        result = replay(prefix)
        assert result.ok, result.summary()
        state = result.state
        hands = [[card_name(c) for c in state.hand(s)] for s in range(state.players)]
        shown = {card_name(e[2]) for e in state.history if e[0] >= 0 and e[2] >= 0}
        out.append((hands, shown))
    return out


def test_r5_2_no_message_to_a_seat_carries_another_seats_hidden_cards(server: Server) -> None:
    room = server.create_room(players=4, name="S0")
    code = room["code"]
    tokens = [room["token"]] + [server.join(code, s, f"S{s}") for s in (1, 2, 3)]
    clients: list[Client] = [server.client(code, t) for t in tokens]
    spectator = server.client(code)
    clients[0].send({"type": "start"})
    for c in [*clients, spectator]:
        c.recv_until(lambda m: m["type"] == "state" and m["room"]["status"] == "playing")
    start_version = clients[0].last["version"]
    rng = random.Random(4)
    steps = 0
    while True:
        view = clients[0].last["view"]
        if view["termination"] is not None:
            break
        actor = view["seats_to_act"][0]
        mine = clients[actor].last
        legal = list(mine["view"]["legal_actions"])
        if steps % 25 == 0:  # someone out of turn is refused, and the refusal names no card
            other = clients[(actor + 1) % 4]
            assert other.error({"type": "act", "action": legal[0], "version": mine["version"]})["code"] in (
                "not_your_turn",
                "illegal",
            )
        clients[actor].send({"type": "act", "action": rng.choice(legal), "version": mine["version"]})
        for c in [*clients, spectator]:
            c.recv_until(lambda m: m["type"] == "state")
        steps += 1
    record = server.get(f"/api/rooms/{code}/record").json()
    truth = truth_by_step(record)
    assert len(truth) == steps + 1

    hidden_checked = 0
    for seat, c in enumerate([*clients, spectator]):
        is_spectator = seat == 4
        for msg in c.messages:
            if msg.get("type") == "state" and msg["view"] is not None:
                k = msg["version"] - start_version
            elif msg.get("type") == "welcome" or msg.get("view") is None:
                k = 0
            else:  # errors and pongs
                k = None
            hands, shown = truth[k if k is not None else 0]
            own = set() if is_spectator else set(hands[seat])
            if msg.get("view") and not is_spectator:
                assert msg["view"]["hand"] == hands[seat], (seat, msg["version"])
            if is_spectator and msg.get("view"):
                assert "hand" not in msg["view"]
            others_hidden = {card for s, h in enumerate(hands) if s != seat for card in h} - own - shown
            hidden_checked += len(others_hidden)
            leaked = card_codes(msg, skip_hand=not is_spectator) & others_hidden
            assert not leaked, f"seat {seat} was sent {sorted(leaked)} at version {msg.get('version')}: {msg}"
    assert hidden_checked > 1000  # the check had hidden cards to find
    for c in [*clients, spectator]:
        c.close()

"""Fair deals and matches in rooms: the committed seed, the nonces, the deal and the match score.

Why: the server deals the cards, so it commits to a secret seed (``seed`` event, stored but never
sent) and publishes its SHA-256 before anyone contributes a nonce; the deal is then
:func:`fairness.fair_game` of the seed and the seated people's nonces (``docs/fairness.md``,
``docs/server.md``). Everything here is a pure function of the room's folded events, so a room
rebuilt after a restart deals, reshuffles and scores exactly as before.

This module reads and changes the room's state (:mod:`.room_state`); :mod:`.rooms` folds events
through it, so it never imports :mod:`.rooms`. Verifying a finished record is the engine's
(:mod:`sequence_game.verification`), shared with ``sequence verify``.
"""

from __future__ import annotations

import functools
import secrets
from typing import Any

from ..cards import card_name
from ..fairness import ALGORITHM, FairDeal, commitment, fair_game, new_seed
from ..i18n import N_
from ..records import with_fairness, write_record
from ..state import EV_RESHUFFLE, GameState
from ..verification import verify_record
from .fair_checks import verification_data
from .protocol import ProtocolError
from .room_state import Room


@functools.lru_cache(maxsize=1024)
def _commitment(seed: bytes, dealer: int | None = None) -> str:
    """A seed's commitment, computed once: a room's public form (sent with every move) shows it."""
    return commitment(seed, dealer)


def seed_event(players: int, dealer: int | None = None) -> dict[str, Any]:
    """The data of a ``seed`` event: a fresh secret seed and the dealer of the game it will deal
    (R4.1: at random for a first game, the next seat for a rematch). Only their commitment
    (``sequence-fair/2``) is ever published, so the dealer is fixed before any nonce is known."""
    if dealer is None:
        dealer = secrets.randbelow(players)
    return {"seed": new_seed().hex(), "dealer": dealer}


def seed_commitment(d: dict[str, Any]) -> str:
    """The public form of a ``seed`` event's data (one stored before ``/2`` binds no dealer)."""
    return _commitment(bytes.fromhex(d["seed"]), d.get("dealer"))


def current_commitment(room: Room) -> str:
    if room.fair_seed is None:
        raise ProtocolError("no_seed", N_("this room has no committed seed"))
    return _commitment(room.fair_seed, room.fair_dealer)


def next_dealer(room: Room) -> int:
    """The dealer of the next fresh deal: the one the committed seed is bound to, or, in a room
    whose seed was committed before dealers were bound (``sequence-fair/1``), one drawn now."""
    if room.fair_dealer is not None:
        return room.fair_dealer
    return secrets.randbelow(len(room.seats))


def start_data(
    room: Room, dealer: int, nonces: list[tuple[int, str]], *, swap_of: int | None = None
) -> dict[str, Any]:
    """The ``start`` event of a fair deal. Holds the nonces and the dealt deck (both public), never
    the seed: that stays in the ``seed`` event. ``swap_of``: the game whose deck is replayed."""
    bound: int | None
    if swap_of is None:
        seed, bound = room.fair_seed, room.fair_dealer
        if bound is not None and bound != dealer:
            raise RuntimeError(f"room {room.code}: the seed is committed to dealer {bound}, not {dealer}")
    else:
        if room.deal is None:
            raise ProtocolError("no_fair_deal", N_("the last game had no fair deal to replay"))
        # the same deck (seed and nonces) by the next dealer: the deck is known to all by now
        seed, nonces = room.deal.seed, list(room.deal.nonces)
        bound = None if room.deal.dealer is None else dealer
    if seed is None:
        raise ProtocolError("no_seed", N_("this room has no committed seed"))
    deal = FairDeal(seed, tuple(nonces), bound)
    data: dict[str, Any] = {
        "fair": deal.algorithm,
        "commitment": deal.commitment,
        "dealer": dealer,
        "nonces": [[seat, nonce] for seat, nonce in deal.nonces],
        "deck": [card_name(c) for c in deal.deck()],
    }
    if swap_of is not None:
        data["swap_of"] = swap_of
    return data


def deal_game(room: Room, d: dict[str, Any]) -> GameState:
    """Fold a fair ``start``: the game dealt from the seed and nonces, checked against the stored deck."""
    swap = d.get("swap_of") is not None and room.deal is not None
    seed = room.deal.seed if swap and room.deal else room.fair_seed
    bound = d["dealer"] if d["fair"] == ALGORITHM else None
    if not swap and bound is not None and room.fair_dealer != bound:
        raise RuntimeError(f"room {room.code}: the stored deal's dealer is not the committed one")
    if seed is None or commitment(seed, bound) != d["commitment"]:
        raise RuntimeError(f"room {room.code}: the stored deal does not match the committed seed")
    deal = FairDeal(seed, tuple((int(s), str(n)) for s, n in d["nonces"]), bound)
    state = fair_game(room.game_config(), deal, d["dealer"])
    if [card_name(c) for c in state.initial_deck] != d["deck"]:
        raise RuntimeError(f"room {room.code}: the stored deck does not match its fair deal")
    room.deal = deal
    room.swap_of = d.get("swap_of")
    room.verified = None
    return state


def verdict(room: Room, trial: GameState, played: int) -> dict[str, Any] | None:
    """The server's verification of a game just finished with a fair deal, or ``None``.

    Why here: the worker that commits the last move computes it once and stores it with that
    move (the event's ``verify``), so every other worker, and a restart, folds it in instead of
    replaying the record again (``sequence verify`` is most of what a finished room costs).
    ``trial``: the room's game with the last move tried on a copy (history entries from
    ``played`` on); a copy does not reshuffle as the fair deal does (R5.4), so a last move that
    reshuffled gives ``None`` and the record is verified where it is shown, as before."""
    if room.deal is None or any(e[0] == EV_RESHUFFLE for e in trial.history[played:]):
        return None
    return verification(with_fairness(write_record(trial), room.deal))


def game_over(room: Room, state: GameState) -> None:
    """Keep the finished game's record (with its fairness block) and its line of the match."""
    record = write_record(state)
    if room.deal is not None:
        record = with_fairness(record, room.deal)
    room.records.append(record)
    outcome = state.outcome()
    room.match.append(
        {
            "game": len(room.match),
            "winner": outcome.winner if outcome else None,
            "dealer": state.dealer,
            "moves": sum(1 for e in state.history if e[0] >= 0),
            "swap_of": room.swap_of,
            "fair": room.deal is not None,
        }
    )


def finished_record(room: Room, game: int | None) -> tuple[int, dict[str, Any]]:
    """A finished game's record: ``game`` by its number in the match, or the game just over."""
    if game is None:
        if room.status != "over" or not room.records:
            raise ProtocolError("in_progress", N_("a record is released only when the game is over"))
        return len(room.records) - 1, room.records[-1]
    if not 0 <= game < len(room.records):
        raise ProtocolError(
            "no_game",
            N_("no finished game {game} in this room ({games} so far)"),
            params={"game": game, "games": len(room.records)},
        )
    return game, room.records[game]


def fairness_public(room: Room) -> dict[str, Any] | None:
    """What anyone may know: the commitment now in force, and for the latest deal its nonces,
    and once it is over its seed and the server's own verification (``sequence verify``)."""
    if room.fair_seed is None:
        return None
    out: dict[str, Any] = {
        "algorithm": ALGORITHM if room.fair_dealer is not None else "sequence-fair/1",
        "commitment": current_commitment(room),
    }
    out["gathering"] = room.gathering is not None
    deal = room.deal
    if deal is not None:
        game: dict[str, Any] = {
            "algorithm": deal.algorithm,
            "commitment": _commitment(deal.seed, deal.dealer),
            "dealer": room.state.dealer if room.state is not None else deal.dealer,
            "nonces": [{"seat": s, "nonce": n} for s, n in deal.nonces],
            "swap_of": room.swap_of,
        }
        if room.status == "over" and room.records:
            game["seed"] = deal.seed.hex()
            if room.verified is None:
                room.verified = verification(room.records[-1])
            game["verify"] = room.verified
        out["game"] = game
    return out


def verification(record: dict[str, Any]) -> dict[str, Any]:
    """The server's check of a finished record: ``sequence verify``'s status and checks, each as
    data (a code, its catalogue message and params: :mod:`.fair_checks`), never an English sentence."""
    status, report = verify_record(record)
    return verification_data(status, report)


def match_public(room: Room) -> dict[str, Any]:
    """The running match: each finished game's winner, and the score by side."""
    sides = room.sides
    score = [0] * sides
    draws = 0
    for g in room.match:
        if g["winner"] is None:
            draws += 1
        else:
            score[g["winner"]] += 1
    return {"games": list(room.match), "score": score, "draws": draws}

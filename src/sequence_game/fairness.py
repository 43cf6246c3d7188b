"""Provably fair deals: a committed server seed, nonces from the seated people, and one documented
hash-based generator that yields the deck and every reshuffle (``docs/fairness.md``).

Why: an online room's server deals the cards, so players must be able to check afterwards that
it did not choose them. The server publishes :func:`commitment` (the SHA-256 of its secret seed)
before anyone contributes a nonce; the deck and each reshuffle (R1.2, R5.4) are then a fixed
function of the seed *and* the nonces, so neither the server (it cannot change the committed
seed) nor one player (it cannot see the seed) chooses the cards. After the game the record carries
the seed and the nonces and anybody can recompute everything (``sequence verify``).

The algorithm (``sequence-fair/2``; ``sequence-fair/1`` for records made before it) uses nothing
but SHA-256, so it can be reimplemented in any language from the documentation; this module is its
reference and uses only the standard library. ``/2`` binds the dealer (R4.1) in the commitment, so
a server cannot pick the dealer after seeing the nonces; the deck is the same function in both.

>>> deal = FairDeal(seed=bytes(range(32)), nonces=((0, "alice"), (1, "bob")))
>>> deal.commitment == commitment(bytes(range(32)))
True
>>> from .cards import card_name
>>> [card_name(c) for c in deal.deck()[:5]]
['jd', '5d', '7d', '3s', '2d']
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Iterable, MutableSequence, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, TypeVar

from .cards import FULL_DECK, Card
from .messages import M_, N_, Message

if TYPE_CHECKING:
    from .config import GameConfig
    from .state import GameState

ALGORITHM: Final = "sequence-fair/2"
"""The identifier of the algorithm below, stored in every record's ``fairness`` block."""
ALGORITHM_V1: Final = "sequence-fair/1"
"""The first version: the commitment is ``SHA-256(seed)`` alone (the dealer is bound to nothing).
Records made with it stay verifiable; new deals use :data:`ALGORITHM`."""
ALGORITHMS: Final = (ALGORITHM_V1, ALGORITHM)
SEED_BYTES: Final = 32
MAX_NONCE_BYTES: Final = 256
"""A nonce is 1..256 bytes of UTF-8 text (a client sends the hex of 16 random bytes)."""
_DOMAIN: Final = b"sequence-fair/1\n"
"""The key's tag, the same in ``/1`` and ``/2`` (their decks are one function)."""
_COMMIT_DOMAIN: Final = b"sequence-fair/2\n"
_U32: Final = 1 << 32
_HEX64: Final = re.compile(r"[0-9a-f]{64}")

T = TypeVar("T")


class FairnessError(ValueError):
    """A fairness block or input that does not follow ``docs/fairness.md``."""


def new_seed() -> bytes:
    """A fresh secret server seed (32 bytes from the operating system's CSPRNG)."""
    return secrets.token_bytes(SEED_BYTES)


def new_nonce() -> str:
    """A client's contribution: the hex of 16 random bytes (any 1..256-byte text is accepted)."""
    return secrets.token_hex(16)


def commitment(seed: bytes, dealer: int | None = None) -> str:
    """The public commitment to a seed and the dealer (R4.1) of the game it will deal, as 64
    lower-case hex digits: ``SHA-256("sequence-fair/2\\n" || seed || u32(dealer))``.

    ``dealer=None`` gives ``sequence-fair/1``'s commitment, ``SHA-256(seed)``, which binds no dealer."""
    if dealer is None:
        return hashlib.sha256(seed).hexdigest()
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < _U32:
        raise FairnessError(f"the dealer is a seat number, not {dealer!r}")
    return hashlib.sha256(_COMMIT_DOMAIN + seed + _u32(dealer)).hexdigest()


def _u32(n: int) -> bytes:
    return n.to_bytes(4, "big")


def derive_key(seed: bytes, nonces: Sequence[tuple[int, str]]) -> bytes:
    """The 32-byte key of a deal: SHA-256 over the domain tag, the seed and every nonce in seat
    order, each length-prefixed so that no two different inputs give the same bytes."""
    _check_seed(seed)
    data = bytearray(_DOMAIN)
    data += seed
    for seat, nonce in _checked_nonces(nonces):
        raw = nonce.encode("utf-8")
        data += _u32(seat) + _u32(len(raw)) + raw
    return hashlib.sha256(bytes(data)).digest()


class HashStream:
    """The bytes of one named stream of a key: SHA-256 in counter mode,
    block ``i`` = SHA-256(key || u32(len(purpose)) || purpose || u64(i)), ``i`` = 0, 1, 2, ...

    Each purpose (``"deck"``, ``"reshuffle/1"``, ...) is its own stream, so one reshuffle's
    draws never depend on how many numbers another one used."""

    def __init__(self, key: bytes, purpose: str) -> None:
        raw = purpose.encode("ascii")
        self._prefix = key + _u32(len(raw)) + raw
        self._counter = 0
        self._buffer = b""

    def read(self, n: int) -> bytes:
        """The next ``n`` bytes of the stream."""
        while len(self._buffer) < n:
            block = hashlib.sha256(self._prefix + self._counter.to_bytes(8, "big")).digest()
            self._buffer += block
            self._counter += 1
        out, self._buffer = self._buffer[:n], self._buffer[n:]
        return out

    def below(self, n: int) -> int:
        """A uniform integer in ``0..n-1`` (1 <= n <= 2**32): read 4 bytes as a big-endian
        unsigned integer ``x``; accept ``x mod n`` when ``x < 2**32 - (2**32 mod n)``, else read
        4 more bytes (rejection sampling: no value is more likely than another)."""
        if not 1 <= n <= _U32:
            raise ValueError(f"below({n}): n must be 1..2**32")
        limit = _U32 - _U32 % n
        while True:
            x = int.from_bytes(self.read(4), "big")
            if x < limit:
                return x % n


def fisher_yates(items: MutableSequence[T], stream: HashStream) -> None:
    """Shuffle in place: for ``i`` from ``len - 1`` down to 1, swap item ``i`` with item
    ``stream.below(i + 1)`` (Durstenfeld's form of the Fisher-Yates shuffle)."""
    for i in range(len(items) - 1, 0, -1):
        j = stream.below(i + 1)
        items[i], items[j] = items[j], items[i]


def canonical(cards: Iterable[Card]) -> list[Card]:
    """Cards in the canonical order the shuffles start from: by card number (rank 2..ace, within
    a rank suits s, h, d, c; ``cards.CARD_NAMES``), copies side by side."""
    return sorted(cards)


def _check_seed(seed: bytes) -> None:
    if not isinstance(seed, bytes) or len(seed) != SEED_BYTES:
        raise FairnessError(f"the seed is {SEED_BYTES} bytes")


def _checked_nonces(nonces: Iterable[tuple[int, str]]) -> list[tuple[int, str]]:
    out = sorted(nonces)
    seats = [seat for seat, _ in out]
    if len(set(seats)) != len(seats):
        raise FairnessError(M_("one nonce per seat"))
    for seat, nonce in out:
        if not isinstance(seat, int) or isinstance(seat, bool) or seat < 0:
            raise FairnessError(M_("a nonce's seat is a seat number, not {value}", value=repr(seat)))
        try:
            size = len(nonce.encode("utf-8")) if isinstance(nonce, str) else 0
        except UnicodeEncodeError:  # a lone surrogate from a JSON escape
            size = 0
        if not 1 <= size <= MAX_NONCE_BYTES:
            raise FairnessError(
                M_(
                    "seat {seat}'s nonce must be 1..{size} bytes of UTF-8 text",
                    seat=seat,
                    size=MAX_NONCE_BYTES,
                )
            )
    return out


@dataclass(frozen=True)
class FairDeal:
    """A server seed with the nonces of the seated people: everything the cards come from.

    ``nonces`` holds ``(seat, nonce)`` pairs (people only; bots contribute none); their order
    does not matter, the key takes them in seat order. ``dealer``: the seat that deals (R4.1),
    bound in the commitment (``sequence-fair/2``); ``None`` for a ``sequence-fair/1`` deal."""

    seed: bytes
    nonces: tuple[tuple[int, str], ...] = ()
    dealer: int | None = None
    key: bytes = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        nonces = tuple(_checked_nonces(self.nonces))
        object.__setattr__(self, "nonces", nonces)
        object.__setattr__(self, "key", derive_key(self.seed, nonces))

    @property
    def commitment(self) -> str:
        return commitment(self.seed, self.dealer)

    @property
    def algorithm(self) -> str:
        return ALGORITHM_V1 if self.dealer is None else ALGORITHM

    def stream(self, purpose: str) -> HashStream:
        return HashStream(self.key, purpose)

    def deck(self) -> list[Card]:
        """The 104-card deck, top card first: the canonical deck shuffled with stream ``"deck"``."""
        cards = canonical(FULL_DECK)
        fisher_yates(cards, self.stream("deck"))
        return cards

    def reshuffle(self, number: int, pool: Iterable[Card]) -> list[Card]:
        """The ``number``-th reshuffle of the game (1 for the first, R5.4): the discard piles'
        cards in canonical order, shuffled with stream ``"reshuffle/<number>"``; top card first."""
        if number < 1:
            raise ValueError("reshuffles are numbered from 1")
        cards = canonical(pool)
        fisher_yates(cards, self.stream(f"reshuffle/{number}"))
        return cards

    def to_json(self) -> dict[str, Any]:
        """The record's ``fairness`` block (``docs/fairness.md``)."""
        return {
            "algorithm": self.algorithm,
            "commitment": self.commitment,
            "seed": self.seed.hex(),
            "nonces": [{"seat": seat, "nonce": nonce} for seat, nonce in self.nonces],
        }


@dataclass(frozen=True)
class FairnessBlock:
    """A parsed ``fairness`` block. ``seed`` is ``None`` while it is not yet revealed (a record
    of a game in progress shows the commitment only)."""

    commitment: str
    seed: bytes | None
    nonces: tuple[tuple[int, str], ...]
    algorithm: str = ALGORITHM_V1

    def deal(self, dealer: int | None = None) -> FairDeal | None:
        """The deal, with the record's ``dealer`` when the algorithm binds it (``/2``)."""
        if self.seed is None:
            return None
        return FairDeal(self.seed, self.nonces, dealer if self.algorithm == ALGORITHM else None)


def parse_block(block: Any) -> FairnessBlock:
    """Read a record's ``fairness`` block, refusing anything ``docs/fairness.md`` does not allow."""
    if not isinstance(block, dict):
        raise FairnessError(M_("fairness must be an object"))
    algorithm = block.get("algorithm")
    if algorithm not in ALGORITHMS:
        raise FairnessError(
            M_(
                "fairness.algorithm is {value}; this program knows {known}",
                value=repr(algorithm),
                known=" ".join(repr(a) for a in ALGORITHMS),
            )
        )
    commit = block.get("commitment")
    if not isinstance(commit, str) or not _HEX64.fullmatch(commit):
        raise FairnessError(M_("fairness.commitment must be 64 lower-case hex digits"))
    seed_hex = block.get("seed")
    seed: bytes | None = None
    if seed_hex is not None:
        if not isinstance(seed_hex, str) or not _HEX64.fullmatch(seed_hex):
            raise FairnessError(M_("fairness.seed must be 64 lower-case hex digits (32 bytes)"))
        seed = bytes.fromhex(seed_hex)
    raw = block.get("nonces", [])
    if not isinstance(raw, list):
        raise FairnessError(
            Message(
                "fairness.nonces must be a list of {{seat, nonce}} objects",
                msgid=N_("fairness.nonces must be a list of objects with seat and nonce"),
            )
        )
    pairs: list[tuple[int, str]] = []
    for i, entry in enumerate(raw):
        if not isinstance(entry, dict) or set(entry) != {"seat", "nonce"}:
            raise FairnessError(M_("fairness.nonces[{i}] must be an object with seat and nonce", i=i))
        pairs.append((entry["seat"], entry["nonce"]))
    try:
        nonces = tuple(_checked_nonces(pairs))
    except TypeError:  # sorting mixed types
        raise FairnessError(M_("fairness.nonces: seats are integers and nonces text")) from None
    return FairnessBlock(commit, seed, nonces, str(algorithm))


class FairReshuffles:
    """The engine's reshuffle source (``GameState(reshuffle_source=...)``) for a fair game: the
    ``k``-th non-empty reshuffle is :meth:`FairDeal.reshuffle` ``(k, pool)``.

    ``done`` is how many reshuffles the game has had already (when a game is resumed)."""

    def __init__(self, deal: FairDeal, done: int = 0) -> None:
        self.deal = deal
        self.done = done

    def __call__(self, pool: list[Card]) -> list[Card]:
        if not pool:
            return []  # nothing to reshuffle: the engine makes no reshuffle, and counts none
        self.done += 1
        return self.deal.reshuffle(self.done, pool)


def fair_game(config: GameConfig, deal: FairDeal, dealer: int) -> GameState:
    """A new game dealt from ``deal`` by ``dealer`` (R4.1, chosen before the nonces are known;
    the deal's own dealer when it binds one) whose every reshuffle also comes from ``deal``.

    Note: :meth:`GameState.copy` drops the reshuffle source (copies are for search), so the
    room must keep playing on this state object, or call :func:`resume` on a replayed one."""
    from .state import GameState

    if deal.dealer is not None and deal.dealer != dealer:
        raise FairnessError(f"the deal is committed to dealer {deal.dealer}, not {dealer}")
    return GameState(config, deal.deck(), dealer, reshuffle_source=FairReshuffles(deal))


def resume(state: GameState, deal: FairDeal) -> GameState:
    """Make the later reshuffles of a replayed or copied fair game come from ``deal`` again
    (``records.replay`` draws reshuffles past the record's end from its own generator)."""
    state._reshuffle_source = FairReshuffles(deal, done=state.view(0).reshuffles)
    return state


# ----------------------------------------------------------------------------- verification


@dataclass(frozen=True)
class Check:
    """One verified item: what, whether it matched, and a human detail (an English
    :class:`~sequence_game.messages.Message`: people read it in their language by its data)."""

    name: str
    ok: bool
    detail: str

    def to_json(self) -> dict[str, Any]:
        return {"check": self.name, "ok": self.ok, "detail": self.detail}


def verify_cards(
    block: FairnessBlock,
    deck: Sequence[Card],
    reshuffles: Sequence[Sequence[Card]],
    dealer: int | None = None,
) -> list[Check]:
    """Recompute the commitment, the deck and every reshuffle from the block and compare them with
    the recorded ones (``reshuffles``: the recorded new draw piles, in game order, top first;
    ``dealer``: the record's, which a ``sequence-fair/2`` commitment binds).

    Each reshuffle is recomputed from the recorded pile's own cards in canonical order, so a
    tampered order is caught here and a tampered multiset by the replay (R5.4)."""
    if block.seed is None:
        return [Check("seed", False, M_("the seed is not revealed (the game may still be in progress)"))]
    checks: list[Check] = []
    bound = dealer if block.algorithm == ALGORITHM else None
    if block.algorithm == ALGORITHM and dealer is None:
        raise ValueError(f"{ALGORITHM} binds the dealer: pass the record's")
    got = commitment(block.seed, bound)
    checks.append(
        Check(
            "commitment",
            got == block.commitment,
            M_("SHA-256 of the seed matches the commitment")
            if got == block.commitment
            else M_(
                "SHA-256 of the seed is {got}, the commitment says {expected}",
                got=got,
                expected=block.commitment,
            ),
        )
    )
    deal = FairDeal(block.seed, block.nonces, bound)
    expected = deal.deck()
    checks.append(_compare("deck", expected, list(deck)))
    for number, pile in enumerate(reshuffles, start=1):
        checks.append(_compare(f"reshuffle {number}", deal.reshuffle(number, pile), list(pile)))
    return checks


def _compare(name: str, expected: list[Card], got: list[Card]) -> Check:
    from .cards import card_code

    if expected == got:
        return Check(
            name,
            True,
            Message("all {cards} cards match", {"cards": len(got)}, N_("every card matches ({cards})")),
        )
    if len(expected) != len(got):
        counts = {"got": len(got), "expected": len(expected)}
        return Check(
            name,
            False,
            Message(
                "{got} cards recorded, {expected} expected",
                counts,
                N_("cards recorded: {got}; expected: {expected}"),
            ),
        )
    at = next(i for i, (a, b) in enumerate(zip(expected, got, strict=True)) if a != b)
    cards = {"at": at, "got": card_code(got[at]), "expected": card_code(expected[at])}
    return Check(
        name,
        False,
        Message(
            "card {at} (0 = top) is {got}, the algorithm gives {expected}",
            cards,
            N_("card {at} (0 = top) is {got}; the algorithm gives {expected}"),
        ),
    )

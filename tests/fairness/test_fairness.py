"""Provably fair deals (docs/fairness.md): the algorithm against an independent reimplementation and
the documented test vectors, the engine's use of it, and ``sequence verify`` on tampered records."""

from __future__ import annotations

import copy
import hashlib
import json
import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sequence_game import GameConfig
from sequence_game.cards import FULL_DECK, card_name
from sequence_game.cli import main
from sequence_game.commands.verify import MALFORMED, MISMATCH, UNVERIFIABLE, VERIFIED, verify_record
from sequence_game.fairness import (
    ALGORITHM,
    FairDeal,
    FairnessError,
    HashStream,
    commitment,
    fair_game,
    parse_block,
    resume,
)
from sequence_game.records import fairness_of, replay, with_fairness, write_record

DOC = Path(__file__).resolve().parents[2] / "docs" / "fairness.md"

# ----------------------------------------------------------------------------- an independent reimplementation
# Written from docs/fairness.md alone, with hashlib and plain lists: card codes, not engine numbers.

CODES = [r + s for r in "23456789tjqka" for s in "shdc"]


def ref_key(seed: bytes, nonces: list[tuple[int, str]]) -> bytes:
    data = b"sequence-fair/1\n" + seed
    for seat, nonce in sorted(nonces):
        raw = nonce.encode()
        data += seat.to_bytes(4, "big") + len(raw).to_bytes(4, "big") + raw
    return hashlib.sha256(data).digest()


def ref_u32s(key: bytes, purpose: str):  # type: ignore[no-untyped-def]
    p = purpose.encode()
    i = 0
    while True:
        block = hashlib.sha256(key + len(p).to_bytes(4, "big") + p + i.to_bytes(8, "big")).digest()
        for k in range(0, 32, 4):
            yield int.from_bytes(block[k : k + 4], "big")
        i += 1


def ref_shuffle(key: bytes, purpose: str, codes: list[str]) -> list[str]:
    out = sorted(codes, key=CODES.index)
    words = ref_u32s(key, purpose)
    for i in range(len(out) - 1, 0, -1):
        n = i + 1
        while True:
            x = next(words)
            if x < 2**32 - 2**32 % n:
                break
        j = x % n
        out[i], out[j] = out[j], out[i]
    return out


def ref_deck(seed: bytes, nonces: list[tuple[int, str]]) -> list[str]:
    return ref_shuffle(ref_key(seed, nonces), "deck", CODES * 2)


def codes(cards: list[int]) -> list[str]:
    return [card_name(c) for c in cards]


# ----------------------------------------------------------------------------- the algorithm


def doc_vectors() -> list[dict[str, Any]]:
    text = DOC.read_text()
    match = re.search(r"<!-- vectors -->\s*```json\n(.*?)```", text, re.DOTALL)
    assert match, "docs/fairness.md has its test vectors in a ```json block after <!-- vectors -->"
    vectors: list[dict[str, Any]] = json.loads(match.group(1))
    return vectors


def test_the_documented_vectors_match_the_module_and_the_reimplementation() -> None:
    vectors = doc_vectors()
    assert len(vectors) >= 3
    for v in vectors:
        seed = bytes.fromhex(v["seed"])
        nonces = [(n["seat"], n["nonce"]) for n in v["nonces"]]
        deal = FairDeal(seed, tuple(nonces))
        assert commitment(seed) == v["commitment"] == hashlib.sha256(seed).hexdigest()
        bound = hashlib.sha256(b"sequence-fair/2\n" + seed + v["dealer"].to_bytes(4, "big")).hexdigest()
        assert commitment(seed, v["dealer"]) == v["commitment_v2"] == bound
        assert FairDeal(seed, tuple(nonces), v["dealer"]).commitment == bound
        assert FairDeal(seed, tuple(nonces), v["dealer"]).deck() == deal.deck()  # /2 deals as /1
        assert deal.key.hex() == v["key"] == ref_key(seed, nonces).hex()
        stream = HashStream(deal.key, "deck")
        assert stream.read(32).hex() == v["deck_block_0"]
        assert codes(deal.deck()) == v["deck"] == ref_deck(seed, nonces)
        for r in v.get("reshuffles", []):
            got = codes(deal.reshuffle(r["number"], [FULL_DECK[CODES.index(c)] for c in r["pool"]]))
            assert got == r["order"] == ref_shuffle(deal.key, f"reshuffle/{r['number']}", r["pool"])


@settings(max_examples=25, deadline=None)
@given(
    seed=st.binary(min_size=32, max_size=32),
    nonces=st.dictionaries(st.integers(0, 11), st.text(min_size=1, max_size=20), max_size=4),
)
def test_deck_and_reshuffles_agree_with_the_reimplementation(seed: bytes, nonces: dict[int, str]) -> None:
    pairs = sorted(nonces.items())
    deal = FairDeal(seed, tuple(pairs))
    deck = codes(deal.deck())
    assert deck == ref_deck(seed, pairs)
    assert Counter(deck) == Counter(CODES * 2)
    pool = deck[:37]
    assert codes(deal.reshuffle(2, [FULL_DECK[CODES.index(c)] for c in pool])) == ref_shuffle(
        deal.key, "reshuffle/2", pool
    )


def test_every_input_changes_the_deck_and_nonce_order_does_not() -> None:
    seed = bytes(range(32))
    base = FairDeal(seed, ((0, "a"), (1, "b"))).deck()
    assert FairDeal(seed, ((1, "b"), (0, "a"))).deck() == base  # taken in seat order
    assert FairDeal(seed, ((0, "a"), (1, "c"))).deck() != base
    assert FairDeal(seed, ((0, "a"), (2, "b"))).deck() != base
    assert FairDeal(bytes(31) + b"\x01", ((0, "a"), (1, "b"))).deck() != base
    # length prefixes: moving a character between two nonces changes the key
    assert FairDeal(seed, ((0, "ab"), (1, "c"))).key != FairDeal(seed, ((0, "a"), (1, "bc"))).key
    # each reshuffle is its own stream
    pool = list(range(52))
    assert FairDeal(seed).reshuffle(1, pool) != FairDeal(seed).reshuffle(2, pool)


def test_below_is_in_range_and_roughly_uniform() -> None:
    stream = HashStream(b"k" * 32, "test")
    counts = Counter(stream.below(3) for _ in range(3000))
    assert set(counts) == {0, 1, 2}
    assert all(900 < n < 1100 for n in counts.values())
    with pytest.raises(ValueError):
        stream.below(0)


def test_bad_inputs_are_refused() -> None:
    with pytest.raises(FairnessError):
        FairDeal(b"short")
    with pytest.raises(FairnessError):
        FairDeal(bytes(32), ((0, "a"), (0, "b")))
    with pytest.raises(FairnessError):
        FairDeal(bytes(32), ((0, ""),))
    with pytest.raises(FairnessError):
        FairDeal(bytes(32), ((0, "x" * 300),))
    with pytest.raises(ValueError):
        FairDeal(bytes(32)).reshuffle(0, [1, 2])
    for bad in (
        [],
        {"algorithm": "other/1"},
        {"algorithm": ALGORITHM, "commitment": "XY"},
        {"algorithm": ALGORITHM, "commitment": "0" * 64, "seed": "zz"},
        {"algorithm": ALGORITHM, "commitment": "0" * 64, "nonces": [{"seat": "0", "nonce": "a"}]},
        {"algorithm": ALGORITHM, "commitment": "0" * 64, "nonces": [{"seat": 0}]},
        {"algorithm": ALGORITHM, "commitment": "0" * 64, "nonces": {"0": "a"}},
    ):
        with pytest.raises(FairnessError):
            parse_block(bad)


# ----------------------------------------------------------------------------- the engine and records

DEAL = FairDeal(bytes.fromhex("9f" * 32), ((0, "c0ffee"), (1, "feedface")))


def fair_record(players: int = 2, seed: int = 0) -> dict[str, Any]:
    """A whole random game dealt fairly; 2-player random games run into a reshuffle (R5.4)."""
    state = fair_game(GameConfig(players=players), DEAL, dealer=players - 1)
    state.playout(random.Random(seed))
    return with_fairness(write_record(state), DEAL)


def test_a_fair_game_deals_its_deck_and_reshuffles_from_the_deal() -> None:
    record = fair_record()
    assert list(record["deck"]) == codes(DEAL.deck())
    piles = [a["reshuffle"] for a in record["actions"] if "reshuffle" in a]
    assert piles, "this game should reach a reshuffle"
    for number, pile in enumerate(piles, start=1):
        assert pile == ref_shuffle(DEAL.key, f"reshuffle/{number}", pile)
    assert replay(record).ok
    block = fairness_of(record)
    assert block is not None and block.deal() == DEAL


RESUME_SEED = 5  # random play that leaves the game going with 3 cards to draw


def test_resume_makes_later_reshuffles_fair_again() -> None:
    state = fair_game(GameConfig(players=2), DEAL, dealer=1)
    rng = random.Random(RESUME_SEED)
    while state.deck_size > 3:
        state.apply(state.random_action(rng))
    resumed = resume(state.copy(), DEAL)
    resumed.playout(random.Random(2))
    state.playout(random.Random(2))
    assert state.view(0).reshuffles >= 1
    assert write_record(resumed) == write_record(state)


def test_verify_accepts_an_untouched_record() -> None:
    status, report = verify_record(fair_record())
    assert status == VERIFIED and report["ok"]
    assert {c["check"] for c in report["checks"]} >= {"commitment", "deck", "reshuffle 1", "replay"}


def failed(report: dict[str, Any]) -> set[str]:
    return {c["check"] for c in report["checks"] if not c["ok"]}


def test_verify_detects_a_tampered_deck() -> None:
    record = fair_record()
    deck = record["deck"]
    deck[-1], deck[-2] = deck[-2], deck[-1]  # deep in the draw pile: the replay may stay legal
    status, report = verify_record(record)
    assert status == MISMATCH and "deck" in failed(report) and "commitment" not in failed(report)


def test_verify_detects_a_tampered_seed() -> None:
    record = fair_record()
    seed = bytearray(bytes.fromhex(record["fairness"]["seed"]))
    seed[0] ^= 1
    record["fairness"]["seed"] = seed.hex()
    status, report = verify_record(record)
    assert status == MISMATCH and {"commitment", "deck"} <= failed(report)


def test_verify_detects_a_seed_recommitted_by_the_server() -> None:
    """A server that swaps seed and commitment together still fails: the deck no longer matches."""
    record = fair_record()
    other = bytes(32)
    record["fairness"].update(seed=other.hex(), commitment=commitment(other))
    status, report = verify_record(record)
    assert status == MISMATCH and failed(report) >= {"deck"} and "commitment" not in failed(report)


def test_verify_detects_a_tampered_nonce() -> None:
    record = fair_record()
    record["fairness"]["nonces"][1]["nonce"] = "feedfacf"
    status, report = verify_record(record)
    assert status == MISMATCH and "deck" in failed(report) and "commitment" not in failed(report)


def test_verify_detects_a_tampered_reshuffle() -> None:
    record = fair_record()
    pile = next(a["reshuffle"] for a in record["actions"] if "reshuffle" in a)
    i = next(i for i in range(len(pile) - 1, 0, -1) if pile[i] != pile[i - 1])
    pile[i], pile[i - 1] = pile[i - 1], pile[i]  # the last cards drawn of the pile, if ever
    status, report = verify_record(record)
    assert status == MISMATCH and "reshuffle 1" in failed(report) and "deck" not in failed(report)


def test_verify_reports_records_it_cannot_check() -> None:
    record = fair_record()
    plain = {k: v for k, v in record.items() if k != "fairness"}
    assert verify_record(plain)[0] == UNVERIFIABLE
    hidden = copy.deepcopy(record)
    del hidden["fairness"]["seed"]
    status, report = verify_record(hidden)
    assert status == UNVERIFIABLE and "not revealed" in report["error"]
    bad = copy.deepcopy(record)
    bad["fairness"]["commitment"] = "nope"
    assert verify_record(bad)[0] == MALFORMED
    assert verify_record(b"{not json")[0] == MALFORMED
    stranger = copy.deepcopy(record)
    stranger["fairness"]["nonces"].append({"seat": 7, "nonce": "x"})
    assert verify_record(stranger)[0] == MALFORMED
    surrogate = json.dumps(record).replace('"c0ffee"', '"\\ud800"').encode()
    assert verify_record(surrogate)[0] == MALFORMED


def test_the_verify_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    record = fair_record()
    path.write_text(json.dumps(record))
    assert main(["verify", str(path)]) == VERIFIED
    assert "verified" in capsys.readouterr().out
    record["fairness"]["nonces"][0]["nonce"] = "tampered"
    path.write_text(json.dumps(record))
    assert main(["verify", str(path), "--json"]) == MISMATCH
    out = json.loads(capsys.readouterr().out)
    assert out["ok"] is False and "deck" in failed(out)
    assert main(["verify", str(tmp_path / "missing.json")]) == MALFORMED
    assert "cannot verify" in capsys.readouterr().err


# ----------------------------------------------------------------------------- the dealer (sequence-fair/2)

BOUND = FairDeal(bytes.fromhex("9f" * 32), ((0, "c0ffee"), (1, "feedface")), dealer=1)


def bound_record(seed: int = 0) -> dict[str, Any]:
    state = fair_game(GameConfig(players=2), BOUND, dealer=1)
    state.playout(random.Random(seed))
    return with_fairness(write_record(state), BOUND)


def test_a_bound_deal_is_version_2_and_verifies() -> None:
    record = bound_record()
    assert record["fairness"]["algorithm"] == ALGORITHM == "sequence-fair/2"
    assert record["dealer"] == 1
    status, report = verify_record(record)
    assert status == VERIFIED and report["ok"]


def test_the_same_seed_and_nonces_do_not_verify_with_another_dealer() -> None:
    """At 2 players the dealer swaps both hands and the first move: a server must not choose it
    after seeing the nonces, so the commitment binds it."""
    record = bound_record()
    record["dealer"] = 0  # the same deck, seed and nonces dealt by the other seat
    status, report = verify_record(record)
    assert status == MISMATCH and "commitment" in failed(report)


def test_version_1_records_still_verify_and_bind_no_dealer() -> None:
    """Records made before /2 keep verifying; their hole (any dealer) is why /2 exists."""
    record = fair_record()
    assert record["fairness"]["algorithm"] == "sequence-fair/1"
    assert verify_record(record)[0] == VERIFIED
    state = fair_game(GameConfig(players=2), DEAL, dealer=0)
    state.playout(random.Random(0))
    assert verify_record(with_fairness(write_record(state), DEAL))[0] == VERIFIED


def test_a_bound_deal_refuses_another_dealer_and_an_unknown_algorithm() -> None:
    with pytest.raises(FairnessError):
        fair_game(GameConfig(players=2), BOUND, dealer=0)
    block = dict(bound_record()["fairness"], algorithm="sequence-fair/3")
    with pytest.raises(FairnessError):
        parse_block(block)

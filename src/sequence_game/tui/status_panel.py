"""The side panel of the game table: whose turn, the sides' sequences, the deck and the piles."""

from __future__ import annotations

from rich.text import Text

from ..cards import card_label
from ..i18n import _, ngettext
from .controller import SIDE_LETTERS, GameSession, draw_words, round_number, turn_number, turns_played
from .widgets import CHIP_STYLES

#: Each seat's entry in the compact panel: ``S10 3▮ 7♦`` (name, cards held, last discard).
COMPACT_ENTRY = 12


def status_panel(session: GameSession, thinking: bool = False, *, compact: bool = False) -> Text:
    """The panel's text; ``thinking`` adds an ellipsis after a bot's turn (it is on its move).

    ``compact`` puts two seats on a line with only their last discard: with 8 to 12 players on a
    short terminal (80x24) one line a seat left the move log a single cut-off line."""
    s, st = session, session.state
    cfg = st.config
    text = Text(no_wrap=False)
    if st.is_terminal():
        played = turns_played(st)
        text.append(
            ngettext("Game over after {n} turn", "Game over after {n} turns", played).format(n=played) + "\n",
            style="bold",
        )
    else:
        mover = st.current_seat
        you = s.single_human and not s.is_bot(mover)
        if st.penalty_due:
            doing = (
                _("Turn {turn} (round {round}): You pay the R6.1 fine")
                if you
                else _("Turn {turn} (round {round}): {who} pays the R6.1 fine")
            )
        else:
            doing = (
                _("Turn {turn} (round {round}): You to play")
                if you
                else _("Turn {turn} (round {round}): {who} to play")
            )
        text.append(
            doing.format(turn=turn_number(st), round=round_number(st), who=s.short_label(mover)),
            style="bold",
        )
        if thinking:
            text.append(" …", style="italic")
        text.append("\n")
    counts = st.sequence_counts()
    for side in range(cfg.sides):
        text.append(f" {SIDE_LETTERS[side]} ", style=CHIP_STYLES[side])
        members = " ".join(s.short_label(seat).split()[0] for seat in cfg.seats_of(side))
        text.append(
            _(" {made}/{need} seq: {members}").format(
                made=counts[side], need=cfg.sequences_to_win, members=members
            )
            + "\n"
        )
    text.append(_("Deck {n}").format(n=st.deck_size), style="bold")
    text.append(_(" · {draw} · discards:").format(draw=draw_words(cfg.draw)) + "\n")
    for seat in range(cfg.players):
        pile = st.discard_pile(seat)
        who = s.short_label(seat).split()[0]
        entry = Text()
        entry.append(f"{who:>3} ", style="bold")
        entry.append(f"{st.hand_sizes()[seat]}▮ ")
        for card in pile[-1:] if compact else pile[-4:]:
            entry.append(card_label(card) + " ", style="#ff6b6b" if card % 4 in (1, 2) else "")
        if not pile:
            entry.append("-", style="dim")
        if compact and seat % 2 == 0 and seat + 1 < cfg.players:
            entry.pad_right(COMPACT_ENTRY - entry.cell_len)
            text.append_text(entry)
        else:
            text.append_text(entry)
            text.append("\n")
    return text

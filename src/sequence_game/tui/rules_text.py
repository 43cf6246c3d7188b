"""The rules in brief, numbered as in the project's rule book, for the rules screen and ``rules``."""

from __future__ import annotations

RULES_SUMMARY = """\
SEQUENCE - THE RULES IN BRIEF (numbers as in the rule book)

R1 Equipment. A 10x10 board: every card except the jacks is printed twice; the four corners are
   free spaces. Two decks (104 cards). Two-eyed jacks (J♦ J♣) are wild; one-eyed jacks (J♥ J♠)
   remove a chip. Chips: blue (B), green (G), and red (R) for a third side.
R2 Players. 2, 3, 4, 6, 8, 9, 10 or 12. Up to three play alone; more play in two or three equal
   teams, seated alternately (seat i plays for side i mod sides).
R3 Goal. Two sides need TWO sequences, three sides need ONE. A sequence is five in a row
   (across, down or diagonal) of your chips; a corner counts for everyone. Your second sequence
   may share one space with the first. Chips in a sequence are locked (*) and can't be removed.
R4 The deal. 2 players get 7 cards; 3-4 get 6; 6 get 5; 8-9 get 4; 10-12 get 3. The player left
   of the dealer starts.
R5 A turn.
   R5.1 First, if a card in your hand is dead (both its spaces are taken) you may exchange ONE
        dead card for a new one.
   R5.2 Play one card: a normal card puts a chip on one of its two spaces that is open; a
        two-eyed jack puts a chip on any open space; a one-eyed jack removes an opponent's chip
        that is not locked (and places nothing).
   R5.3 Draw a card. (Manual-draw mode: draw yourself; a draw not taken before the next player
        has played and drawn is lost.)
   R5.4 An empty draw pile is refilled by shuffling all discard piles.
   R5.5 With no legal play, discard a card of your choice and draw. A full round in which nobody
        can play ends the game drawn.
R6 Conduct. No table talk between team mates: if the host upholds a call, every member of that
   team discards one card without drawing (R6.1).
R7 End. The first side with its sequences wins (R7.1); a stuck round is a draw (R7.2).
"""

KEYS_HELP = """\
KEYS
  1-9          choose a card from your hand (or click it)
  arrows       move the cursor on the board
  Enter        play the chosen card on the cursor (or click a highlighted space)
  x            exchange the chosen dead card (R5.1), or discard it when that is allowed (R5.5, R6.1)
  d            draw, in manual-draw mode (R5.3)
  t            uphold a table-talk call against a side (host, R6.1)
  s            save the game as a record        l  the game log
  n            new game                        ?  these rules
  q            quit
Highlighted spaces (+ or ×) are where the chosen card can go. B, G and R are the chips of blue,
green and red; * marks a chip locked in a sequence; ◂ marks the last move.
"""

"""The footer's key descriptions in the player's language.

Textual reads a class's ``BINDINGS`` once, when the class is made, which is before the command line
has chosen a language; so the descriptions there are marked ``N_()`` (English, and in the
catalogue) and each screen or widget translates its own copy of the bindings when it is created.
"""

from __future__ import annotations

from dataclasses import replace

from textual.dom import DOMNode

from ..i18n import _


def translate_bindings(node: DOMNode) -> None:
    """Put ``node``'s binding descriptions and tooltips in the active language.

    Every node holds its own copy of its class's bindings map (Textual copies it per instance), and
    the lists are replaced here, not changed, so the class keeps its English originals.
    """
    table = node._bindings.key_to_bindings  # private, but Textual offers no public way to relabel
    for key, bindings in table.items():
        table[key] = [
            replace(
                b,
                description=_(b.description) if b.description else b.description,
                tooltip=_(b.tooltip) if b.tooltip else b.tooltip,
            )
            for b in bindings
        ]

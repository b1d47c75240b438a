"""SiliconVania's help text (games/siliconvania/help.toml) is reflowed: clients wrap it to their own width."""

from __future__ import annotations

from tabletop.core.help import game_help


def test_siliconvania_help_has_no_hard_line_breaks_inside_a_paragraph():
    """A paragraph is one line (no break in mid-sentence that wraps raggedly); paragraphs stay apart."""
    h = game_help("siliconvania")
    texts = [r["text"] for r in h["rules"]]
    assert texts and all("\n" not in p.strip() for t in texts for p in t.split("\n\n"))
    assert all(len(t) > 40 for t in texts)

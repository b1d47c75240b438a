"""`logwords.entry` remembers a template's words (views reword the log's tail on every call): the entries it gives
are what wording afresh gives, and each call's entry is a new dict of its own."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tabletop.core.logwords import TOKEN, entry, fill

pieces = st.lists(st.sampled_from(["{p0}", "{p1's}", "{p3}", " placed ", "r8", ". ", "{", "}", "{p}", "took"]),
                  max_size=8)


@given(seat=st.sampled_from([None, 0, 1, 2]), parts=pieces)
def test_entry_is_the_fresh_wording(seat: int | None, parts: list[str]) -> None:
    template = "".join(parts)
    fresh = ({"seat": seat, "text": fill(template), "template": template} if TOKEN.search(template)
             else {"seat": seat, "text": template})
    assert entry(seat, template) == fresh
    assert entry(seat, template) == fresh  # the second call, from the cache, too


def test_each_entry_is_a_new_dict() -> None:
    a = entry(1, "{p1} took r8")
    a["text"] = "changed"
    b = entry(1, "{p1} took r8")
    assert b == {"seat": 1, "text": "Player 2 took r8", "template": "{p1} took r8"}
    assert a is not b

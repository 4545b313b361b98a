"""The reader's nearest words and examples (an error's «ближайшие формы») come from
``morphology.close_matches``: :func:`difflib.get_close_matches` with the full similarity worked out only
for candidates that can still be among the best — the same answer, in the same order, ties included."""

from __future__ import annotations

import difflib
import random

from berserk_engine.language.morphology import close_matches, vocabulary
from hypothesis import given, settings
from hypothesis import strategies as st

# a small alphabet: many equal scores, so the order of ties is tried too
WORDS = st.text(alphabet="абвг ", min_size=0, max_size=8)


@settings(max_examples=300, deadline=None)
@given(
    word=WORDS,
    possibilities=st.lists(WORDS, max_size=25),
    n=st.integers(min_value=1, max_value=4),
    cutoff=st.sampled_from([0.0, 0.3, 0.5, 0.6, 1.0]),
)
def test_the_same_answer_as_difflib(word: str, possibilities: list[str], n: int, cutoff: float) -> None:
    assert close_matches(word, possibilities, n, cutoff) == difflib.get_close_matches(
        word, possibilities, n, cutoff
    )


def test_the_same_answer_on_the_readers_words() -> None:
    words = list(vocabulary())
    rng = random.Random(7)
    for word in rng.sample(words, 25):
        typo = list(word)
        typo[rng.randrange(len(typo))] = rng.choice("аеиоу")
        asked = "".join(typo)
        expected = difflib.get_close_matches(asked, words, 3, 0.6)
        assert close_matches(asked, words, 3, 0.6) == expected, asked
        assert expected  # a word with one letter changed has neighbours: the comparison is not empty

"""The card language as a grammar of Russian (issue 25), in layers, each a module:

* :mod:`~berserk_engine.language.tokens` — the words, numbers, icons, names in quotes and punctuation
  of a text, each with its character positions;
* :mod:`~berserk_engine.language.lexicon` — the project's vocabulary as data (``lexicon/*.toml``, a file
  per kind of word, each entry carrying its glossary term or rule);
* :mod:`~berserk_engine.language.morphology` — every token's analyses: {lemma, part of speech, case,
  number, gender, animacy, mood} from pymorphy3's dictionary (never its guesser), closed-class and
  game words from the lexicon;
* :mod:`~berserk_engine.language.grammar` — one declarative lark (Earley) grammar (``syntax/*.lark``, a
  file per layer) over those analyses, agreement by rules written once per agreement key;
* :mod:`~berserk_engine.language.tree` — the typed tree of a reading, compiled to the engine's nodes
  (:class:`~berserk_engine.abilities.Selector`) and rendered back to canonical words.

No Cyrillic literal lives in these modules outside their data files and messages (a test holds it).
"""

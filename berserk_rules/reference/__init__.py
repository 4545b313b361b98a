"""Code about the reference engine itself — the only package of ``berserk_rules`` that imports
``berserk_engine`` (``tests/test_imports.py``): the reference engine as an in-process driver
(:mod:`.driver`), its mypyc build (:mod:`.compiled`), the catalogue of the card-text forms it reads
(:mod:`.phrase_catalogue`) and, for the commands about it, its benchmark and card reading."""

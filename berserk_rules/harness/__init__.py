"""The harness: how a scenario reaches any engine and how its answers are checked.

The driver interface (:mod:`.driver`), the engine as a process speaking NDJSON (:mod:`.protocol`,
one read of each answer's text in :mod:`.replies`), the host that serves a Python driver over the
same protocol (:mod:`.host`), the checking drivers (:mod:`.checked`), the JSON Schemas and their
checks (``schemas/``, :mod:`.contract`, :mod:`.declared`) and the protocol's table of messages
(:mod:`.messages`). Nothing here imports the reference engine (``tests/test_imports.py``)."""

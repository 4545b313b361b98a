"""The reports of a run: the results file (:mod:`.results` — its format, writing, reading and
counts), rule coverage (:mod:`.coverage`), the per-rule matrix (:mod:`.matrix`), JUnit XML
(:mod:`.junit`), test vectors (:mod:`.vectors`) and the step trace of the replay (:mod:`.trace`)."""

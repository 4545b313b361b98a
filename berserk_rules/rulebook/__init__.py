"""The suite's own data and the checks on it: the project folder and its files (:mod:`.project`),
feature files (:mod:`.features`), the scenarios' lint and Gherkin keywords (:mod:`.lint`,
:mod:`.gherkin_keywords`), editions of the rules (:mod:`.editions`), deck lists (:mod:`.decks`)
and the suite's version (:mod:`.suite_version`). The corpus of rules is its own package,
:mod:`berserk_rules.corpus`."""

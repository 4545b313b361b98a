"""Top-level pytest configuration: the rulebook plugin (markers, driver, results) and the steps."""

pytest_plugins = ["berserk_rules.pytest_plugin", "berserk_rules.steps.all"]

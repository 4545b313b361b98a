"""The pytest plugin's jobs, one module each (the plugin itself, :mod:`berserk_rules.pytest_plugin`,
holds the hooks and imports the rest):

* :mod:`~berserk_rules.runner.state` — the run's state on ``config.stash`` and the scenario id of
  a pytest item;
* :mod:`~berserk_rules.runner.options` — the ``--berserk-*`` options and the state built from them;
* :mod:`~berserk_rules.runner.engines` — the engine pool: the driver class, the engine process of
  a pytest process, a scenario's checked driver;
* :mod:`~berserk_rules.runner.known_failures` — the TOML list of expected failures;
* :mod:`~berserk_rules.runner.capabilities` — what the engine declares it supports, and the
  scenarios that leaves out (status «not applicable»);
* :mod:`~berserk_rules.runner.recorder` — pytest's reports turned into each scenario's status,
  written through :mod:`berserk_rules.report.results` (which owns the results file);
* :mod:`~berserk_rules.runner.vectors` — a scenario recorded as a test vector (``--berserk-export``).

None of them imports the plugin, the steps or lint: the steps import what they need from here.
"""

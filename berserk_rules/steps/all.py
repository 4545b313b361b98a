"""Every step module; ``conftest.py`` loads this as a pytest plugin."""

from berserk_rules.steps import registry
from berserk_rules.steps.actions import *  # noqa: F403
from berserk_rules.steps.cards import *  # noqa: F403
from berserk_rules.steps.choices import *  # noqa: F403
from berserk_rules.steps.context import game  # noqa: F401
from berserk_rules.steps.costs import *  # noqa: F403
from berserk_rules.steps.glossary import *  # noqa: F403
from berserk_rules.steps.observations import *  # noqa: F403
from berserk_rules.steps.outcome import *  # noqa: F403
from berserk_rules.steps.position import *  # noqa: F403
from berserk_rules.steps.printed import *  # noqa: F403
from berserk_rules.steps.targets import *  # noqa: F403
from berserk_rules.steps.zones import *  # noqa: F403

# pytest-bdd sees one step per kind here; each runs the matching step of the registry.
registry.bind()

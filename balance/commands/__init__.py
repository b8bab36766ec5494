"""Sub-commands of the ``balance`` CLI, one module each, registered by ``balance.cli``."""

"""The vectorised percentile kernel: every rule over (n_places, n_trials) arrays (seed 004).

``fight`` (the round), ``strike`` (one attack and its defences), ``duel`` (the outcome table a
plain duel is played by, built by evaluating the rule functions), ``groups`` (who attacks whom),
``state`` (the batch state), ``rows`` (reading and writing cells), ``prepare`` (the compiled
fight as the kernel reads it, built once a run), ``counting`` (the breakdown's counters). The
readable scalar oracle of the same rules is :mod:`balance.rules.percentile.reference`."""

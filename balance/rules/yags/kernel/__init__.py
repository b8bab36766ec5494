"""The vectorised Yags kernel: every rule over (n_places, n_trials) arrays (seed 000).

``kernel`` (state and the round), ``declare`` and ``choices`` (declarations), ``strikes``
(an attack and the strikes it sets off), ``blows`` (damage), ``moves`` (manoeuvres and
grappling), ``reach`` (who has got inside whose reach), ``missiles`` (fights at a
distance), ``blasts`` (explosions), ``groups`` (who attacks whom), ``gear`` and ``turns``
(per-place state, who may act), ``static`` and ``flags`` (the compiled fight as arrays, and
which detailed rules can act). The readable scalar oracle of the same rules is
:mod:`balance.rules.yags.reference`, module for module.
"""

"""The readable scalar Yags reference: one fight at a time, the oracle the kernel is tested
against (seed 000).

``fight`` (a trial and its rounds), ``state`` (one fighter's changing state), ``declare``,
``strikes`` (an attack and the strikes it sets off), ``blows`` (damage), ``moves``
(manoeuvres and grappling), ``missiles``, ``blasts``, ``groups``: each the counterpart of
the module of the same name in :mod:`balance.rules.yags.kernel`.
"""

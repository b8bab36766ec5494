"""The vectorised Ymlad kernel: every rule over (n_places, n_trials) arrays (seed 002).

``fight`` (state, the round, skirmishes), ``harm`` (harm, holds and releases), ``flight``
(yielding, running away, breaking), ``groups`` (formation rows and who attacks whom). The
readable scalar oracle of the same rules is :mod:`balance.rules.ymlad.reference`."""

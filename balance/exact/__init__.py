"""The exact engine: one-on-one fights solved as Markov chains (docs/exact.md).

``chain`` enumerates reachable states and steps a round's sparse transition matrix;
``duel`` turns a rule system's duel model into the same tally a Monte Carlo run keeps, as
probabilities. scipy is imported inside the functions that need it.
"""

"""The readable scalar Ymlad reference: one fight at a time, the oracle the kernel is tested
against (seed 002): ``fight`` (a trial, its rounds, skirmishes, harm and groups)."""

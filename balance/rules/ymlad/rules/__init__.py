"""Ymlad rules as small pure functions shared by the kernel, the reference and the compile step
(seed 002): ``tables`` (effort, resistance, harm thresholds and the seed's printed numbers)."""

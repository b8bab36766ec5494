"""Percentile rules as small pure functions and tables shared by the kernel, the reference and
the compile step (seed 004 and the family core): ``tables`` (success levels, the parry matrix,
strike ranks, reach), ``damage`` (damage rolls, armour, impales, major wounds), ``hazards``
(poison, fire, falling, drowning). Neither engine restates what lives here."""

"""Yags rules as small pure functions and tables shared by the kernel, the reference and the
compile step (seed 000): ``tracks`` (wounds, stuns and their checks), ``tactics`` (stances,
manoeuvres and the choices a fighter makes), ``armour``, ``equipment`` (loadouts), ``ranged``
(missiles), ``fatigue``, ``explosions``, ``aftermath`` and ``after`` (who lives after a
battle). Neither engine restates what lives here."""

"""``balance hazard KIND ...``: seed 004's hazards outside a fight, exactly.

``poison`` (POT against CON on the Resistance Table), ``fall``, ``drowning``, ``fire``,
``disease``, ``acid``, ``explosion``, ``wine`` (the Wine of Bakshaan), ``shock`` (mental
shock) and ``shed-armour`` (under water) each print the headline chance and the exact
distribution of hit points lost (``--json``: one object, ``{"hazard": "poison", "inputs":
{"pot", "con", "hp", ...}, "p_overcome": ..., "damage": {"<hp>": probability}}`` for poison,
the chance named after its event for the others). The text names the poison and says who
overcomes whom. ``--hp N`` adds the chance that the damage kills someone with N hit points.
Names (``--poison arsenic``, ``--armour plate``, ``--source bonfire``) come from the
percentile tables (``balance tables percentile``). The rules and the lab's assumptions:
docs/rules/percentile.md, "Hazards".
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from balance.errors import OptionError, unknown_name
from balance.io import jsonout
from balance.rules.percentile.rules import hazards as hz
from balance.rules.percentile.rules.tables import poison_damage


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``hazard`` sub-command (with one sub-command per hazard)."""
    parser = subparsers.add_parser(
        "hazard", help="exact odds of poison, falls, drowning, fire and disease (percentile)",
        description="Seed 004's hazards outside a fight, computed exactly for the percentile "
                    "rules: the chance and the distribution of hit points lost.",
        epilog="Example: balance hazard poison --pot 16 --con 12 --json")
    kinds = parser.add_subparsers(dest="hazard", required=True, metavar="KIND")

    p = kinds.add_parser("poison", help="a poison's POT against CON (Resistance Table)")
    who = p.add_mutually_exclusive_group(required=True)
    who.add_argument("--pot", type=int, help="the poison's potency")
    who.add_argument("--poison", metavar="NAME", help="a poison from the table, e.g. arsenic")
    p.add_argument("--con", type=int, required=True, help="the victim's CON")
    p.add_argument("--mild", action="store_true",
                   help="a mild poison: resisting it costs nothing (not half the POT)")
    _common(p)

    p = kinds.add_parser("fall", help="1D6 per three yards fallen")
    p.add_argument("--yards", type=float, required=True, help="height fallen, in yards")
    p.add_argument("--jump", type=int, metavar="PCT", help="Jump skill tried before landing")
    p.add_argument("--armour", metavar="NAME", help="armour worn (plate adds 1D6)")
    _common(p)

    p = kinds.add_parser("drowning", help="unable to breathe: CON x 5, x 4, ... then 1D6 a round")
    p.add_argument("--con", type=int, required=True, help="the victim's CON")
    p.add_argument("--rounds", type=int, default=5, help="combat rounds without air (5)")
    p.add_argument("--no-breath", action="store_true",
                   help="no chance to grab a breath first: start at CON x 3")
    p.add_argument("--armour", metavar="NAME",
                   help="swimming in this armour (heavy needs Swim each round, plate sinks)")
    p.add_argument("--swim", type=int, default=25, metavar="PCT", help="Swim skill (25)")
    _common(p)

    p = kinds.add_parser("fire", help="damage per round in a fire; armour insulates 1D6 rounds")
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--source", metavar="NAME", help="a fire from the table, e.g. bonfire")
    src.add_argument("--damage", metavar="DICE", help="the fire's damage per round, e.g. 2D6")
    p.add_argument("--rounds", type=int, default=3, help="rounds in the fire (3)")
    p.add_argument("--armoured", action="store_true", help="wearing armour")
    _common(p)

    p = kinds.add_parser("disease", help="CON x 5 to resist; minor 1D2, major 1D3 an hour")
    p.add_argument("--con", type=int, required=True, help="the victim's CON")
    p.add_argument("--major", action="store_true", help="a serious disease (1D3 hp an hour)")
    p.add_argument("--hours", type=int, default=8, help="hours a major disease runs (8)")
    _common(p)

    p = kinds.add_parser("acid", help="acid's damage per round of significant contact")
    p.add_argument("--damage", metavar="DICE", required=True,
                   help="per round, by dilution, e.g. 1D3 (dilute), 1D6, 2D6 (concentrated)")
    p.add_argument("--rounds", type=int, default=1, help="rounds of contact (1)")
    _common(p)

    p = kinds.add_parser("explosion", help="D6s in expanding rings, one fewer per ring")
    p.add_argument("--dice", type=int, required=True, help="D6s at the centre")
    p.add_argument("--ring", type=float, default=2.0, help="yards per ring (2)")
    p.add_argument("--distance", type=float, default=0.0, help="yards from the centre (0)")
    _common(p)

    for kind, text in (("wine", "the Wine of Bakshaan: madness on a failed POW x 5"),
                       ("shock", "mental shock: a failed Luck (POW x 5) lets it linger")):
        p = kinds.add_parser(kind, help=text)
        p.add_argument("--pow", type=int, required=True, help="the victim's POW")
        _common(p)

    p = kinds.add_parser("shed-armour", help="removing armour under water: DEX, else Swim")
    p.add_argument("--dex", type=int, required=True, help="the wearer's DEX")
    p.add_argument("--swim", type=int, default=25, metavar="PCT", help="Swim skill (25)")
    p.add_argument("--rounds", type=int, required=True,
                   help="rounds the armour takes to put on (and so to take off)")
    p.add_argument("--cut", action="store_true", help="cut the straps: off at once, lost")
    _common(p)
    parser.set_defaults(func=run)


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--hp", type=int, metavar="N", help="also the chance of death for N hp")
    p.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    """Handle ``balance hazard``: check the numbers, compute exactly, print; returns 0."""
    hp = getattr(args, "hp", None)
    if hp is not None and hp < 1:
        raise OptionError(f"--hp must be at least 1, got {hp}")
    result, title, inputs, verdict = _compute(args)
    damage = {str(k): p for k, p in result.damage.to_dict().items()}
    if args.json:
        doc: dict[str, object] = {"hazard": args.hazard, "inputs": {**inputs, "hp": hp},
                                  result.event: result.p, "damage": damage}
        if hp is not None:
            doc["p_dead"] = result.p_dead(hp)
        sys.stdout.write(jsonout.dumps(doc) + "\n")
        return 0
    lines = [title, *verdict(result.p),
             f"hit points lost: mean {result.damage.mean():.3f}", "    hp  probability"]
    lines += [f"{k:>6}  {p:.6f}" for k, p in result.damage.to_dict().items() if p >= 1e-9]
    if hp is not None:
        lines.append(f"death (>= {hp} hp lost): {result.p_dead(hp):.6f}")
    sys.stdout.write("\n".join(lines) + "\n")
    return 0


def _chance(p: float) -> str:
    return f"{p:.6f}  ({100 * p:.2f}%)"


def _plain(event: str) -> Callable[[float], list[str]]:
    """The headline line of a hazard other than poison: ``jump: 0.400000  (40.00%)``."""
    return lambda p: [f"{event.removeprefix('p_').replace('_', ' ')}: {_chance(p)}"]


def _compute(args: argparse.Namespace) -> tuple[hz.Hazard, str, dict[str, Any],
                                                Callable[[float], list[str]]]:
    """The hazard, its title, its inputs (for the JSON) and its headline lines."""
    kind = args.hazard
    if kind == "poison":
        return _poison(args)
    if kind == "fall":
        if not 0 <= args.yards <= 10_000:
            raise OptionError(f"--yards must be between 0 and 10000, got {args.yards:g}")
        plate = args.armour is not None and _armour(args.armour).weight == "plate"
        _percent("--jump", args.jump)
        return (hz.fall(args.yards, jump=args.jump, plate=plate),
                f"a fall of {args.yards:g} yards" + (f" in {args.armour}" if args.armour else ""),
                {"yards": args.yards, "jump": args.jump, "armour": args.armour},
                _plain("p_jump"))
    if kind == "drowning":
        _positive("--con", args.con)
        _count("--rounds", args.rounds)
        _percent("--swim", args.swim)
        row = _armour(args.armour) if args.armour is not None else None
        result = hz.drowning(args.con, args.rounds, breath=not args.no_breath,
                             weight=row.weight if row else None, swim=args.swim,
                             never_soaks=bool(row and row.never_soaks))
        return (result, f"{args.rounds} rounds unable to breathe, CON {args.con}",
                {"con": args.con, "rounds": args.rounds, "breath": not args.no_breath,
                 "armour": args.armour, "swim": args.swim}, _plain(result.event))
    if kind == "fire":
        _count("--rounds", args.rounds)
        dice = args.damage if args.damage is not None else _fire(args.source)
        return (hz.fire(dice, args.rounds, armoured=args.armoured),
                f"{args.rounds} rounds in a fire of {dice} a round"
                + (f" ({args.source})" if args.source else ""),
                {"source": args.source, "damage": dice, "rounds": args.rounds,
                 "armoured": args.armoured}, _plain("p_burned"))
    if kind == "acid":
        _count("--rounds", args.rounds)
        _dice(args.damage)
        result = hz.acid(args.damage, args.rounds)
        return (result, f"{args.rounds} rounds of {args.damage} acid",
                {"damage": args.damage, "rounds": args.rounds}, _plain(result.event))
    if kind == "explosion":
        _count("--dice", args.dice)
        if not (0 < args.ring <= 1000 and 0 <= args.distance <= 10_000):
            raise OptionError("--ring must be in (0, 1000] and --distance in [0, 10000]")
        result = hz.explosion(args.dice, args.ring, args.distance)
        return (result, f"a {args.dice}D6 blast, {args.distance:g} yards away",
                {"dice": args.dice, "ring": args.ring, "distance": args.distance},
                _plain(result.event))
    if kind in ("wine", "shock"):
        _positive("--pow", args.pow)
        fn = hz.wine_of_bakshaan if kind == "wine" else hz.mental_shock
        result = fn(args.pow)
        what = "the Wine of Bakshaan" if kind == "wine" else "a shock"
        return result, f"{what}, POW {args.pow}", {"pow": args.pow}, _plain(result.event)
    if kind == "shed-armour":
        _positive("--dex", args.dex)
        _percent("--swim", args.swim)
        _count("--rounds", args.rounds)
        result = hz.shed_armour(args.dex, args.swim, args.rounds, cut=args.cut)
        return (result, f"shedding armour under water ({args.rounds} rounds)",
                {"dex": args.dex, "swim": args.swim, "rounds": args.rounds, "cut": args.cut},
                _plain(result.event))
    _positive("--con", args.con)
    _count("--hours", args.hours)
    return (hz.disease(args.con, major=args.major, hours=args.hours),
            f"{'a major' if args.major else 'a minor'} disease, CON {args.con}",
            {"con": args.con, "major": args.major, "hours": args.hours}, _plain("p_caught"))


def _poison(args: argparse.Namespace):
    """Seed 004: the poison's POT is the active side against the victim's CON."""
    pot = args.pot if args.pot is not None else _poison_pot(args.poison)
    _positive("--pot", pot)
    _positive("--con", args.con)
    row = _tables().resistance["standard"]
    table = {"base": row.base, "step": row.step, "floor": row.floor, "ceiling": row.ceiling}
    result = hz.poison(pot, args.con, mild=args.mild, table=table)
    name = args.poison or "a poison"
    resisted = 0 if args.mild else int(poison_damage(pot, False))
    cost = "nothing lost (a mild poison)" if args.mild else \
        f"losing {resisted} hp (half the POT)"

    def verdict(p: float) -> list[str]:
        return [f"{name} overcomes CON {args.con}: {_chance(p)}, losing {pot} hp",
                f"CON {args.con} overcomes {name}: {_chance(1 - p)}, {cost}"]

    title = (f"{name}: POT {pot} against CON {args.con} on the Resistance Table (the poison "
             "is the active side)")
    inputs = {"poison": args.poison, "pot": pot, "con": args.con, "mild": args.mild}
    return result, title, inputs, verdict


def _tables():
    from balance.io.tables import shipped_tables

    return shipped_tables("percentile")


def _poison_pot(name: str) -> int:
    poisons = _tables().poisons
    if name not in poisons:
        raise OptionError(unknown_name("poison", name, poisons))
    if poisons[name].pot is None:
        raise OptionError(f"{name!r} has no POT: it is not rolled on the Resistance Table")
    return poisons[name].pot


def _armour(name: str):
    armour = _tables().armour
    if name not in armour:
        raise OptionError(unknown_name("armour", name, armour))
    return armour[name]


def _fire(name: str) -> str:
    fires = _tables().fires
    if name not in fires:
        raise OptionError(unknown_name("fire", name, fires))
    return fires[name].damage


def _dice(text: str) -> None:
    from balance.dice import parse
    from balance.errors import DiceExpressionError

    try:
        parse(text)
    except DiceExpressionError as err:
        raise OptionError(f"--damage: {err}") from None


def _positive(option: str, value: int) -> None:
    if not 1 <= value <= 1000:
        raise OptionError(f"{option} must be between 1 and 1000, got {value}")


def _count(option: str, value: int) -> None:
    if not 0 <= value <= 1000:
        raise OptionError(f"{option} must be between 0 and 1000, got {value}")


def _percent(option: str, value: int | None) -> None:
    if value is not None and not 0 <= value <= 300:
        raise OptionError(f"{option} must be a percentage between 0 and 300, got {value}")

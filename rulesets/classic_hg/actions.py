"""Every classic-hg action, declared once: id, label, key, parameters, ``may`` check and handler.

The console's Footer, palette, forms and help, and the engine before a handler
runs, all read this list; the rules themselves are in ``turn``, ``fire``,
``damage`` and ``phases``, the words of each choice in ``choices``.
"""

from __future__ import annotations

from engine.actions import Action, Param

from . import choices, damage, fire, hangars, phases, turn
from .catalogue import CATALOGUE

SHIP = Param("ship", "Ship", "unit", unit="ship")

ACTIONS = (
    Action("roll_initiative", "Roll initiative", turn.roll_initiative, key="i", may=turn.may_roll_initiative),
    Action("set_range", "Choose the range", turn.set_range, key="r", may=turn.may_set_range, params=(
        Param("side", "Chosen by", "choice", options=choices.initiative_side, optional=True, default="",
              words=choices.side_words),
        Param("range", "Range", "choice", options=choices.ranges))),
    Action("fire", "Fire turrets", fire.fire, key="f", may=fire.may_fire, params=(
        SHIP,
        Param("turrets", "Turrets", "multi", options=choices.turrets),
        Param("target", "Target", "unit", unit="ship", enemy_of="ship", options=choices.fire_targets),
        Param("warhead", "Warhead", "choice", options=choices.warheads, optional=True, default="he",
              words=choices.warhead_words),
        Param("location", "Selective location", "choice", options=choices.locations, optional=True,
              words=choices.location_words),
    )),
    Action("launch_torpedo", "Launch a torpedo", fire.launch_torpedo, key="t", may=fire.may_launch_torpedo, params=(
        SHIP,
        Param("target", "Target", "unit", unit="ship", enemy_of="ship", options=choices.torpedo_targets),
        Param("warhead", "Warhead", "choice", options=choices.torpedo_warheads, optional=True, default="he",
              words=choices.torpedo_words),
    )),
    Action("ram", "Ram", fire.ram, key="m", may=fire.may_ram, params=(
        Param("ship", "Ship", "unit", unit="ship", options=choices.with_maneuver),
        Param("target", "Target", "unit", unit="ship", enemy_of="ship", options=choices.with_maneuver))),
    Action("launch_craft", "Launch small craft", hangars.launch_craft, key="l", may=hangars.may_launch_craft,
           params=(SHIP, Param("craft", "Small craft", "choice", options=choices.craft_choices,
                               words=choices.craft_words))),
    Action("recover_craft", "Recover small craft", hangars.recover_craft, key="e", may=hangars.may_recover_craft,
           params=(SHIP, Param("craft", "Small craft", "choice", options=choices.craft_choices,
                               words=choices.craft_words))),
    Action("break_off", "Break off", fire.break_off, key="b", may=fire.may_break_off, params=(
        Param("ship", "Ship", "unit", unit="ship", options=choices.against_fastest),)),
    Action("defend", "Intercept an attack", fire.defend, key="d", may=fire.may_defend, params=(
        SHIP,
        Param("turret", "Turret", "choice", options=choices.defending_turrets),
        Param("attack", "Attack", "choice", options=choices.attacks),
        Param("defence", "Defence", "choice", options=choices.defences, optional=True,
              words=choices.defence_words),
    )),
    Action("resolve_damage", "Resolve damage", damage.start_damage, key="g", may=damage.may_resolve_damage),
    Action("load_programs", "Reprogram a computer", phases.load_programs, key="p", may=phases.may_load_programs,
           params=(Param("ship", "Ship", "unit", unit="ship", options=choices.with_storage),
                   Param("programs", "Programs", "multi", options=choices.programs, optional=True, default=(),
                         initial=choices.loaded_programs))),
    Action("withdraw", "Withdraw a ship", turn.withdraw, key="x", may=turn.may_withdraw, params=(
        SHIP, Param("reason", "Why", "choice", choices=turn.OUT_REASONS, said="{}"))),
    Action("next", "Next step", phases.go_on, key="n", may=phases.may_go_on),
)

for _action in ACTIONS:
    CATALOGUE.add(_action)

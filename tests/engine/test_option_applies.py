"""Which options matter given the others (engine.options.applies): what the lobby's options
line shows, so that no figure is shown that cannot count (RULES.md §2.7, §4.5)."""

from __future__ import annotations

from engine.games import GAMES
from engine.konchinka.options import KonchinkaOptions
from engine.kopilka.options import KopilkaOptions
from engine.options import applies, option_fields, options_dict, parse_options


def test_4_5_stake_counts_only_with_the_pot_and_point_value_only_per_point() -> None:
    per_point = options_dict(parse_options(KonchinkaOptions, {}))
    pot = options_dict(parse_options(KonchinkaOptions, {"payment": "pot"}))
    assert applies(KonchinkaOptions, per_point, "point_value")
    assert not applies(KonchinkaOptions, per_point, "stake")
    assert applies(KonchinkaOptions, pot, "stake")
    assert not applies(KonchinkaOptions, pot, "point_value")
    assert not applies(KonchinkaOptions, {}, "stake")  # the default payment is per point


def test_2_7_the_hold_pass_fine_counts_only_when_such_a_pass_is_allowed() -> None:
    assert not applies(KopilkaOptions, {"hold_pass": False}, "hold_pass_fine")
    assert applies(KopilkaOptions, {"hold_pass": True}, "hold_pass_fine")


def test_every_when_names_another_option_of_the_same_game_and_one_of_its_values() -> None:
    for spec in GAMES.values():
        fields = {f.name: f for f in option_fields(spec.options_type)}
        for f in fields.values():
            when = f.metadata.get("when")
            if when is None:
                assert applies(spec.options_type, {}, f.name)
                continue
            other, value = when
            assert other in fields and other != f.name
            meta = fields[other].metadata
            allowed = meta.get("choices", (True, False) if meta["kind"] == "bool" else ())
            assert value in allowed, (spec.name, f.name)

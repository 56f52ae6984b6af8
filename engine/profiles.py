"""Rule profiles (RULES 8): named presets that fix every option, each one overridable.

A profile is the *game* a session plays (OpenSpiel's "game parameters"); the match state in
:mod:`engine.match` is the *state*. Money profiles have no match length.

>>> p = profile("tournament", match_length=7)
>>> p.variant.name, p.match_length, p.crawford, p.jacoby
('backgammon', 7, True, False)
>>> profile("online-nardy", auto_doubles=2).variant.name
'long'
>>> profile("money", beaver=False).beaver
False
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from engine.errors import EngineError
from engine.variant import BACKGAMMON, LONG_NARDY, VARIANTS, Variant


class InvalidProfileError(EngineError):
    """An unknown profile name or option, or options that contradict each other."""


@dataclass(frozen=True)
class Profile:
    """Every option of RULES 8, with the section each implements."""

    name: str
    variant: Variant = BACKGAMMON
    #: Points to win the match (6.1); 0 for money play (single games with a stake).
    match_length: int = 0
    #: Crawford rule (6.2), match play only.
    crawford: bool = True
    #: Jacoby rule (5.7), money play only.
    jacoby: bool = False
    #: Beaver and raccoon (5.4), money play only.
    beaver: bool = False
    raccoon: bool = False
    #: Automatic doubles on opening ties (5.6): 0, 1 or 2, money play only.
    auto_doubles: int = 0
    #: No double on the very first throw of a single game or of a match's first game (5.5).
    no_double_first_throw: bool = False
    #: Cube limit (5.8): the largest value the cube may reach.
    cube_limit: int = 64
    #: Condone (7.2): an illegal play stands once the opponent throws or doubles.
    condone: bool = False
    #: Money play: what one point is worth (8: stake x value x cube).
    stake: int = 1
    #: Online nardy (8): each side's starting balance in stakes; None = not checked.
    balance: int | None = None
    #: Balance in stakes needed to play with the cube and to double (8; seed 001).
    balance_to_play: int = 0
    balance_to_double: int = 0

    def __post_init__(self):
        if isinstance(self.variant, str):
            if self.variant not in VARIANTS:
                raise InvalidProfileError(f"unknown variant {self.variant!r} (backgammon or long)")
            object.__setattr__(self, "variant", VARIANTS[self.variant])
        if self.match_length < 0:
            raise InvalidProfileError(f"a match is played to 1 point or more, not {self.match_length}")
        if self.cube_limit < 1 or self.cube_limit & (self.cube_limit - 1):
            raise InvalidProfileError(f"the cube limit is a power of two, not {self.cube_limit}")
        if self.auto_doubles not in (0, 1, 2):
            raise InvalidProfileError(f"automatic doubles are 0, 1 or 2, not {self.auto_doubles}")
        if self.is_match and (self.jacoby or self.beaver or self.raccoon or self.auto_doubles):
            # RULES 5.4, 5.6, 5.7: money play only, never in matches
            raise InvalidProfileError("Jacoby, beavers and automatic doubles are for money play only")
        if self.raccoon and not self.beaver:
            raise InvalidProfileError("a raccoon answers a beaver: enable beavers first")

    @property
    def is_match(self) -> bool:
        return self.match_length > 0

    def replace(self, **options) -> "Profile":
        """This profile with some options changed; unknown options are an error."""
        unknown = set(options) - {f.name for f in dataclasses.fields(self)}
        if unknown:
            raise InvalidProfileError(f"unknown profile option(s): {', '.join(sorted(unknown))}")
        return dataclasses.replace(self, **options)

    def to_json(self) -> dict:
        data = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        data["variant"] = self.variant.name
        return data

    @classmethod
    def from_json(cls, data: dict) -> "Profile":
        try:
            return cls(**data)
        except TypeError as exc:
            raise InvalidProfileError(f"not a profile: {exc}") from None


#: The presets of the RULES 8 table.
PRESETS: dict[str, Profile] = {p.name: p for p in (
    Profile("tournament", BACKGAMMON, match_length=7, crawford=True),
    Profile("money", BACKGAMMON, crawford=False, jacoby=True, beaver=True),
    # seed 001: long or short, stake, Jacoby, beaver without raccoon, no double on the first
    # throw, balance 4 stakes to play long nardy with the cube and 8 to double (short 6, 12)
    Profile("online-nardy", LONG_NARDY, crawford=False, jacoby=True, beaver=True,
            no_double_first_throw=True, balance_to_play=4, balance_to_double=8),
    Profile("long-nardy-match", LONG_NARDY, match_length=7, crawford=True),
)}


def profile(name: str, **options) -> Profile:
    """A preset by name with options overridden.

    Choosing short nardy in the online profile also moves its balance limits to 6 and 12.

    >>> profile("online-nardy", variant="backgammon").balance_to_double
    12
    """
    try:
        base = PRESETS[name]
    except KeyError:
        raise InvalidProfileError(
            f"unknown profile {name!r} (one of {', '.join(PRESETS)})") from None
    if name == "online-nardy" and options.get("variant") in ("backgammon", BACKGAMMON):
        options = {"balance_to_play": 6, "balance_to_double": 12, **options}
    return base.replace(**options)

"""Channel tables: an observation encoder's layout declared once, as data.

An encoder's planes are an ordered tuple of channel groups (``Group``: name, planes, meaning,
value kind). Everything else about the layout follows from that declaration instead of being
kept in step by hand: each group's first channel (the encoder module's constants), the channel
count, the README's channel table (``ChannelTable.markdown``), generic decoding
(``ChannelTable.decode``, which every ``decode_*`` helper calls) and the fingerprint the
compiled twin and the tests' reference encoder check themselves against
(``ChannelTable.layout``). ``EncoderSpec`` bundles a table with its encoder, so a ruleset can
hold several named encoders.

Ruleset-neutral and free of numpy (decoding only calls methods of the array it is given), so
the rules core may import it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from enum import Enum
from typing import Any


class Value(Enum):
    """How one block of a group holds its value, and what ``ChannelTable.decode`` gives back."""

    THERMOMETER = "thermometer"
    """Per kind, plane ``l`` is 1 where the count exceeds ``l``: decodes to the count of every kind."""
    KINDS = "kind set"
    """One plane, 1 at every kind of a set: decodes to the sorted kinds."""
    ONE_HOT = "one-hot kind"
    """Each plane 1 at one kind or empty: one plane decodes to its kind or None, several to the
    kinds of the planes set, in plane order."""
    CHOICE = "choice"
    """Whole planes, exactly one set: decodes to the label of that plane."""
    FLAG = "flag"
    """One whole plane, 0 or 1: decodes to a bool."""
    LEVEL = "level"
    """Whole planes, plane ``l`` is 1 where a number exceeds ``l``: decodes to the number."""
    FRACTION = "fraction"
    """One whole plane holding ``count / scale`` (uint8 planes: the count itself): decodes to the count."""


RELATIVE_SEATS = (0, 1, 2, 3)
"""Labels of a relative-seat choice: 0 self, 1 next (下家), 2 opposite (对家), 3 previous (上家)."""


@dataclass(frozen=True)
class Group:
    """One group of consecutive channels: ``blocks`` blocks of ``planes`` planes, each block
    holding one value of kind ``value`` (the blocks are per relative seat, per pair of seats...)."""

    name: str
    """The encoder module's constant for the group's first channel (``"HAND"``)."""
    planes: int
    """Planes of one block."""
    meaning: str
    """What the channels hold, as the README says it (with the Chinese term of a rule concept)."""
    value: Value
    blocks: int = 1
    per: str = ""
    """What one block is for, when there are several (``"relative seat"``)."""
    labels: tuple[Any, ...] = ()
    """``Value.CHOICE``: the label of each plane, in order."""
    scale: float = 0.0
    """``Value.FRACTION``: the float plane is ``count / scale``."""

    def __post_init__(self) -> None:
        if not self.name.isidentifier() or not self.name.isupper():
            raise ValueError(f"group name {self.name!r} must be an upper-case identifier (a module constant)")
        if self.planes < 1 or self.blocks < 1:
            raise ValueError(f"{self.name}: planes and blocks must be ≥ 1")
        if self.blocks > 1 and not self.per:
            raise ValueError(f"{self.name}: {self.blocks} blocks need ``per`` (what a block is for)")
        if self.value is Value.CHOICE and len(self.labels) != self.planes:
            raise ValueError(f"{self.name}: a choice needs one label per plane")
        if self.value in (Value.KINDS, Value.FLAG, Value.FRACTION) and self.planes != 1:
            raise ValueError(f"{self.name}: a {self.value.value} block is one plane")
        if (self.value is Value.FRACTION) != (self.scale > 0):
            raise ValueError(f"{self.name}: a fraction, and only a fraction, has a scale")

    @property
    def size(self) -> int:
        """Channels of the whole group."""
        return self.planes * self.blocks

    def values_text(self) -> str:
        """The README's "values" cell: how a block holds its value, and the blocks."""
        n = self.planes
        text = {
            Value.THERMOMETER: "thermometer, count " + ", ".join(f"≥ {i + 1}" for i in range(n)),
            Value.KINDS: "1 at each kind of the set",
            Value.ONE_HOT: "one-hot kind, or empty" if n == 1 else f"one-hot kind per plane ({n}), or empty",
            Value.CHOICE: "one of " + ", ".join(map(str, self.labels)) + " (whole planes)",
            Value.FLAG: "0 / 1 (whole plane)",
            Value.LEVEL: "number " + ", ".join(f"≥ {i + 1}" for i in range(n)) + " (whole planes)",
            Value.FRACTION: f"count / {self.scale:g} (whole plane)",
        }[self.value]
        return f"{self.blocks} × {n}, per {self.per}: {text}" if self.blocks > 1 else text


LayoutRow = tuple[str, int, int, int, str]
"""(group name, first channel, planes per block, blocks, value kind name): one row of ``layout_of``."""


def layout_of(groups: Iterable[tuple[str, int, int, str]]) -> tuple[LayoutRow, ...]:
    """(name, planes per block, blocks, value kind name) of consecutive groups -> each with its
    first channel.

    The one place offsets are computed: ``ChannelTable.layout`` and the compiled twin's record
    of the layout it was written for both go through it."""
    out, at = [], 0
    for name, planes, blocks, value in groups:
        out.append((name, at, planes, blocks, value))
        at += planes * blocks
    return tuple(out)


def layout_difference(declared: tuple[LayoutRow, ...], written: tuple[LayoutRow, ...], who: str) -> str:
    """The first group where a declared layout and the copy ``who`` was written for differ, as
    text ("" when they agree): why a twin refuses to serve."""
    for i in range(max(len(declared), len(written))):
        have = declared[i] if i < len(declared) else None
        want = written[i] if i < len(written) else None
        if have != want:
            return f"group {i}: the channel table has {have}, {who} was written for {want}"
    return ""


def refuse_unless_written_for(table: ChannelTable, kinds: int, written_for: Iterable[tuple[str, int, int, str]],
                              written_kinds: int, encoder: str, who: str) -> None:
    """ImportError unless ``table`` (``kinds`` a plane) lays out the groups a compiled twin was
    ``written_for`` (over ``written_kinds``): a twin refuses to serve a layout it was not written
    for, and the pure-Python encoder serves meanwhile."""
    difference = layout_difference(table.layout(), layout_of(written_for), who)
    if not difference and kinds != written_kinds:
        difference = f"{kinds} kinds a plane, {who} was written for {written_kinds}"
    if difference:
        raise ImportError(f"the {encoder} layout changed since {who} was written ({difference}): "
                          f"update {who} (the pure-Python encoder runs meanwhile)")


@dataclass(frozen=True)
class ChannelTable:
    """An encoder's channel groups in plane order; offsets, size, README table and decoding follow."""

    groups: tuple[Group, ...]
    _at: dict[str, tuple[Group, int]] = field(init=False, repr=False, compare=False, hash=False)
    _fractions: tuple[tuple[int, int, float], ...] = field(init=False, repr=False, compare=False, hash=False)
    """(first, stop, scale) of each run of fraction planes sharing a scale."""

    def __post_init__(self) -> None:
        at: dict[str, tuple[Group, int]] = {}
        fractions = []
        for (name, start, _planes, blocks, _), group in zip(self.layout(), self.groups, strict=True):
            if name in at:
                raise ValueError(f"channel group {name} declared twice")
            at[name] = (group, start)
            if group.value is Value.FRACTION:  # one plane a block: consecutive groups of one scale merge
                if fractions and fractions[-1][1] == start and fractions[-1][2] == group.scale:
                    fractions[-1] = (fractions[-1][0], start + blocks, group.scale)
                else:
                    fractions.append((start, start + blocks, group.scale))
        object.__setattr__(self, "_at", at)
        object.__setattr__(self, "_fractions", tuple(fractions))

    def to_float(self, planes: Any, out: Any = None) -> Any:
        """uint8 planes (``(..., channels, kinds)``, each fraction plane holding its count, as
        ``VectorEnv`` gives them with ``obs_dtype=np.uint8``) as the float32 observation, bit for
        bit the encoder's: a float64 division per fraction plane, rounded once to float32, as
        ``count / scale`` in Python. ``out`` (float32, same shape) is written in place when given."""
        if out is None:
            out = planes.astype("float32")
        else:
            out[...] = planes
        for first, stop, scale in self._fractions:
            out[..., first:stop, :] = planes[..., first:stop, :] / scale
        return out

    def layout(self) -> tuple[LayoutRow, ...]:
        """(name, first channel, planes per block, blocks, value kind name) of every group: what a
        copy of the layout (the compiled twin, the reference encoder) is checked against."""
        return layout_of((g.name, g.planes, g.blocks, g.value.name) for g in self.groups)

    @property
    def size(self) -> int:
        """The channel count."""
        _, start, planes, blocks, _ = self.layout()[-1]
        return start + planes * blocks

    def __iter__(self) -> Iterator[Group]:
        return iter(self.groups)

    def __getitem__(self, name: str) -> Group:
        return self._at[name][0]

    def start(self, name: str) -> int:
        """The first channel of group ``name`` (the encoder module's constant of that name)."""
        return self._at[name][1]

    def starts(self) -> tuple[int, ...]:
        """Every group's first channel, in table order: an encoder module unpacks its constants
        from it in one statement (``HAND, MELDS, ... = CHANNELS.starts()``; a test checks each
        name against ``start``)."""
        return tuple(row[1] for row in self.layout())

    def slice(self, name: str, block: int | None = None) -> slice:
        """The channels of group ``name``, or of its block ``block`` only."""
        group, start = self._at[name]
        if block is None:
            return slice(start, start + group.size)
        if not 0 <= block < group.blocks:
            raise IndexError(f"{name} has {group.blocks} blocks, not a block {block}")
        first = start + block * group.planes
        return slice(first, first + group.planes)

    def decode(self, planes: Any, name: str, block: int | None = None) -> Any:
        """The value group ``name`` holds in one observation (``planes``: float32 or uint8, shape
        ``(channels, kinds)``), as its ``Value`` kind says; a group of several blocks gives the
        list of their values unless ``block`` picks one."""
        group = self._at[name][0]
        if block is None and group.blocks > 1:
            return [self.decode(planes, name, b) for b in range(group.blocks)]
        rows = planes[self.slice(name, block or 0)]
        value = group.value
        if value is Value.THERMOMETER:
            return rows.sum(axis=0).astype(int).tolist()
        if value is Value.KINDS:
            return rows[0].nonzero()[0].tolist()
        if value is Value.ONE_HOT:
            kinds = [int(row.argmax()) if row.any() else None for row in rows]
            return kinds[0] if group.planes == 1 else [k for k in kinds if k is not None]
        if value is Value.CHOICE:
            return group.labels[int(rows[:, 0].argmax())]
        if value is Value.FLAG:
            return bool(rows[0, 0])
        if value is Value.LEVEL:
            return int(rows[:, 0].sum())
        if planes.dtype.kind in "ui":  # FRACTION on uint8 planes: the count itself
            return int(rows[0, 0])
        return round(float(rows[0, 0]) * group.scale)

    def markdown(self) -> str:
        """The channel table as the README prints it (one line a group, no final newline)."""
        lines = ["| channels | name | content | values |", "|---|---|---|---|"]
        for name, start, planes, blocks, _ in self.layout():
            group, size = self[name], planes * blocks
            span = f"{start}" if size == 1 else f"{start}–{start + size - 1}"
            lines.append(f"| {span} | `{name}` | {group.meaning} | {group.values_text()} |")
        return "\n".join(lines)


def repeat_kinds(counts: list[int]) -> list[int]:
    """Kinds with repeats from a count per kind (``[0, 2, 1]`` -> ``[1, 1, 2]``)."""
    return [k for k, n in enumerate(counts) for _ in range(n)]


@dataclass(frozen=True)
class EncoderSpec:
    """One named observation encoder, self-contained: a ruleset holds several as ``{spec.name: spec}``."""

    name: str
    """The encoder's name (``"cs-v0"``), as checkpoints record it."""
    channels: ChannelTable
    shape: tuple[int, int]
    """(channels, kinds) of one observation."""
    encoder: Callable[[], Any]
    """A fresh incremental encoder: ``planes(game, seat) -> bytes`` (uint8 planes, fractions
    holding their counts) and ``(game, seat) -> float32 array``."""
    to_float: Callable[..., Any]
    """``to_float(uint8 planes, out=None)`` -> the float32 observation, bit for bit the encoder's."""
    planes_into: Callable[..., Any] | None = None
    """The compiled twin's ``planes_into(game, seat, buf, offset)``, which writes the planes of an
    ``encoder`` of exactly that class into a batch row: ``VectorEnv`` calls it directly, not through
    the encoder's method that forwards to it. None where there is none (the pure package)."""

    def __post_init__(self) -> None:
        if self.shape[0] != self.channels.size:
            raise ValueError(f"{self.name}: shape {self.shape} but the channel table has "
                             f"{self.channels.size} channels")

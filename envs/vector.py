"""``VectorEnv``: many tables stepped by one call, every pending decision one row of a batch.

```python
from cnmahjong.envs.vector import VectorEnv
venv = VectorEnv(num_tables=64, rules="mainstream", seed=0)    # ruleset="changsha" (default)
# VectorEnv(num_tables=64, ruleset="hangzhou") plays Hangzhou; rules default to the ruleset's preset
batch = venv.reset()
while training:
    actions = policy(batch.obs, batch.mask)   # one row per pending decision: one forward pass
    batch = venv.step(actions)                # actions[i] answers row i of the previous batch
```

A batch holds the decisions pending now at every table, ordered by table then
seat: one row on a turn, several when several seats decide at once (claims on
a discard, robbing a kong, wins on dropped tiles, a blind choice of all four
seats). The buffers hold ``ruleset.max_to_act`` rows per table (the game class's
``MAX_TO_ACT``: three for a discard's claimants, four for a four-seat blind window).
A seat that picks several times in one window (``TableGame._more_picks``) has one
row per round: every seat of the window answers once per step.

A seat that has left the hand (``game.seats_out``, a 血战 winner) has no rows; what
is paid to it later (a refund, an end-of-hand check) still arrives in ``rewards``. Each row is that seat's own
observation (the AEC env's encoder, bit for bit) and mask; the seats of one
window never see each other's choices, and the engine resolves them by
priority once all have answered, as in the AEC env.

For the step just taken the batch also carries ``rewards`` (num_tables, 4):
what each seat was paid at that step (opening wins mid-hand, the settlement
when a hand ends), divided by ``reward_scale``, and ``hand_over``
(num_tables,): tables whose hand ended at this step. Such a table deals its
next hand at once, and its rows in the same batch belong to the new hand.
A hand's rewards sum to zero and every seat receives its whole settlement,
whether or not it decided near the end. A decision with one legal action is
played by the engine (as the AEC env's ``auto_single_actions``). The timing is the AEC env's
(one ``cnmahjong.envs.core.rewards.Ledger``): ``defer_early_payments=True`` holds a payment made
before a seat's first decision of the hand and pays it at the step that answers that decision
(or when the hand ends), as a learner that credits rewards to a seat's last decision wants.

Table ``i`` deals its hands from its own seed, ``venv.table_seeds[i]``, exactly
as an AEC env reset with that seed and then reset without one; ``seed``
makes the whole run reproducible.

``hands=`` replaces the seeded stream by a function ``hands(table) -> game or
None`` (the arena plays given deals this way); a table given None stops, and
``step`` returns an empty batch once every table has stopped.

Arrays are written into buffers allocated once: a batch's arrays are views
that the next ``step`` overwrites (copy what you keep). They are the caller's to
read and even to write: ``step`` checks actions against a private copy of the
masks, so editing ``batch.mask`` in place changes nothing of the legality check,
and a rejected step changes no table. ``obs_dtype=np.uint8``
gives the planes as bytes (4× smaller; the wall and stack planes hold the
counts, ``venv.encoding.to_float`` gives the float observation back). ``encoder="name"`` picks
another of the ruleset's named encoders (its first by default).

``log=False``: the tables' games keep no event log (``game.events`` is None from the deal on,
as ``rollouts(log=False)`` plays them; a ``hands`` game's log is dropped too; refused for a game
class that does not declare ``PLAYS_WITHOUT_LOG``): the same play,
observations, masks and rewards, without an event dict per move, about a sixth of a compiled
decision (``make bench --instructions``). For a learner that never reads the log (the self-play
trainer); the default keeps it, for whoever replays a table or plays a bot through it (the arena).

``state=True`` adds ``batch.state``: per row, the global state of its table
(``cnmahjong.envs.core.state``) at that moment, bit for bit the AEC env's ``state()``
(uint8 with ``obs_dtype=np.uint8``): a centralised critic's input, never a policy's.
"""

from __future__ import annotations

try:
    import cython
except ImportError:  # the pure package without Cython: the C declarations do nothing
    from cnmahjong.envs.core import no_cython as cython

from dataclasses import dataclass
from typing import Any

import numpy as np

from cnmahjong.envs.core.checks import bool_arg, int_arg, positive_float_arg, seed_arg
from cnmahjong.envs.core.engine import DONE, TableGame
from cnmahjong.envs.core.planes import Twin
from cnmahjong.envs.core.rewards import Ledger
from cnmahjong.envs.core.ruleset import DEFAULT_RULESET, Ruleset, get_ruleset
from cnmahjong.envs.core.seats import NUM_SEATS
from cnmahjong.envs.core.state import state_layout


def row_writer(encoder: Any, spec: Any = None) -> Any:
    """The encoder's ``planes_into(game, seat, buf, offset)`` (its planes written into a batch's
    buffer), or None where it has none, or where a subclass overrides ``planes`` below the class
    that wrote ``planes_into`` (that writer would not write the subclass's planes: copied instead).
    For an encoder of exactly ``spec.encoder``'s class, ``spec.planes_into`` where the spec names
    one (the compiled twin the encoder's own method forwards to: one call a row less). None as
    Python: there a writer joins the rows and copies them, as the copying path does, one call later."""
    write = getattr(encoder, "planes_into", None)
    if write is None or not cython.compiled:
        return None
    if spec is not None and spec.planes_into is not None and type(encoder) is spec.encoder:
        return spec.planes_into
    mro = type(encoder).__mro__
    below = next((i for i, k in enumerate(mro) if "planes_into" in vars(k)), 0)  # 0: the instance's own
    return None if any("planes" in vars(k) for k in mro[:below]) else write


def twin_of_writer(write: Any) -> Twin | None:
    """The ``Twin`` whose ``planes_into`` ``write`` is (``row_writer``'s compiled writer), else None:
    ``VectorEnv`` keeps the twin as the table's writer and calls its method in C, without a Python
    call's arguments to parse."""
    owner = getattr(write, "__self__", None)
    return owner if type(owner) is Twin else None


@dataclass
class Batch:
    """The decisions pending now (rows) and what the last step paid (per table)."""

    obs: np.ndarray
    """(B, C, K) planes, float32 or uint8, one row per pending decision."""
    mask: np.ndarray
    """(B, A) int8 legal-action flags of each row."""
    table: np.ndarray
    """(B,) table index of each row."""
    seat: np.ndarray
    """(B,) seat (0–3) of each row."""
    rewards: np.ndarray
    """(num_tables, 4) float32: what each seat was paid at the step just taken."""
    hand_over: np.ndarray
    """(num_tables,) bool: tables whose hand ended at the step just taken (a new one is dealt)."""
    state: np.ndarray | None = None
    """(B, S, K) global state of each row's table (``state=True`` only; None otherwise)."""

    def __len__(self) -> int:
        return len(self.table)


class VectorEnv:
    """Many tables of one ruleset, stepped together (see the module docstring)."""

    def __init__(self, num_tables: int = 64, rules: Any = None, seed: int | None = None,
                 obs_dtype: Any = np.float32, reward_scale: float = 1.0,
                 ruleset: str | Ruleset | None = None, hands: Any = None, state: bool = False,
                 defer_early_payments: bool = False, encoder: str | None = None, log: bool = True) -> None:
        self.ruleset = rs = get_ruleset(DEFAULT_RULESET if ruleset is None else ruleset)
        self.encoding = enc = rs.encoding if encoder is None else rs.encoding_named(encoder)
        self.num_tables = int_arg(num_tables, "num_tables", low=1)
        self.config = rs.as_config(rs.default_rules if rules is None else rules)
        self.reward_scale = positive_float_arg(reward_scale, "reward_scale")
        self.defer_early_payments = bool_arg(defer_early_payments, "defer_early_payments")
        self.log = bool_arg(log, "log")
        if not self.log and not rs.game.PLAYS_WITHOUT_LOG:
            raise ValueError(f"log=False: the {rs.name} ruleset's {rs.game.__name__} does not play without its event "
                             f"log (TableGame.PLAYS_WITHOUT_LOG); allowed log=True")
        dtype = np.dtype(obs_dtype)
        if dtype not in (np.dtype(np.float32), np.dtype(np.uint8)):
            raise ValueError(f"obs_dtype must be np.float32 or np.uint8, got {obs_dtype!r}")
        self.obs_dtype = dtype
        self._seed = seed_arg(seed)
        if hands is not None and not callable(hands):
            raise TypeError(f"hands must be a function table -> game or None, got {type(hands).__name__}")
        self._hands = hands
        rows = self.num_tables * rs.max_to_act  # the ruleset's most seats deciding at once, per table
        # the rows' uint8 planes and masks are written in place (``planes_into``, ``legal_mask_into``)
        self._planes = bytearray(rows * int(np.prod(enc.shape)))
        self._masks = bytearray(rows * rs.num_actions)
        u8 = np.frombuffer(self._planes, dtype=np.uint8).reshape(rows, *enc.shape)
        self._obs = u8 if dtype == np.uint8 else np.zeros((rows, *enc.shape), dtype=dtype)
        self._mask = np.frombuffer(self._masks, dtype=np.int8).reshape(rows, rs.num_actions)
        self._planes_view, self._masks_view = memoryview(self._planes), memoryview(self._masks)
        self._table = np.zeros(rows, dtype=np.int64)
        self._seat = np.zeros(rows, dtype=np.int64)
        self._rewards = np.zeros((self.num_tables, NUM_SEATS), dtype=np.float32)
        self._hand_over = np.zeros(self.num_tables, dtype=bool)
        self.state_layout = state_layout(rs, enc) if bool_arg(state, "state") else None
        self._state = None if self.state_layout is None else np.zeros((rows, *self.state_layout.shape), dtype=dtype)
        self.games: list[Any] = []
        self.table_seeds: list[int] = []
        self.hands_played = 0
        # the last batch's rows, private (the caller may write batch.table, batch.seat and batch.mask):
        # its size, each row's table and seat (rows of one table together, seats in order), the masks
        self._n = 0
        self._row_table = np.zeros(rows, dtype=np.int64)
        self._row_seat = np.zeros(rows, dtype=np.int64)
        self._legal = b""
        self._rngs: list[np.random.Generator] = []
        self._encoders: list[Any] = []
        self._writers: list[Any] = []  # per table: its encoder's planes_into(game, seat, buf, offset), or None
        # (the Twin itself where that is a twin's method: called in C)
        self._ledger = Ledger(0)

    # ------------------------------------------------------------------ api
    def reset(self, seed: int | None = None) -> Batch:
        """Deal a new hand at every table; ``seed`` (else the constructor's) fixes every table's
        stream of hands."""
        seed = seed_arg(seed)
        if seed is None:
            seed = self._seed
        root = np.random.default_rng(seed)
        self.table_seeds = [int(x) for x in root.integers(2**63, size=self.num_tables)]
        self._rngs = [np.random.default_rng(s) for s in self.table_seeds]
        self._encoders = [self.encoding.encoder() for _ in range(self.num_tables)]
        self._writers = [twin_of_writer(w) or w for w in (row_writer(e, self.encoding) for e in self._encoders)]
        self.games = [None] * self.num_tables
        self._ledger = Ledger(self.num_tables, NUM_SEATS, self.reward_scale, self.defer_early_payments)
        self._rewards[:] = 0
        self._hand_over[:] = False
        for t in range(self.num_tables):
            self._deal(t)
        return self._gather()

    @cython.locals(game=TableGame, i=cython.Py_ssize_t, j=cython.Py_ssize_t, k=cython.Py_ssize_t, n=cython.Py_ssize_t,
                   t=cython.Py_ssize_t, width=cython.Py_ssize_t, legal=bytes, acts_list=list,
                   row_table="long long[:]", row_seat="long long[:]")
    def step(self, actions: Any) -> Batch:
        """Apply ``actions[i]`` for row ``i`` of the previous batch, play forced decisions, credit
        payments, deal again where a hand ended, and return the next batch. Every action is
        checked against its row's mask before any table changes."""
        if not self.games:
            raise RuntimeError("step() before reset(): call reset() first")
        acts = np.asarray(actions)
        n = self._n
        if acts.shape != (n,) or not (np.issubdtype(acts.dtype, np.integer) and acts.dtype != np.bool_):
            raise ValueError(f"actions must be {n} integers, one per row of the last batch, "
                             f"got {acts.dtype} array of shape {acts.shape}")
        if not n:
            raise RuntimeError("step() after every table stopped (hands() gave None everywhere)")
        legal, width = self._legal, self.ruleset.num_actions  # the masks as gathered (private: not the batch's)
        acts_list = acts.tolist()  # Python ints (a numpy item is a numpy scalar, slow to make and compare)
        for i, a in enumerate(acts_list):  # one pass, C compiled: each action inside its row and legal there
            if not 0 <= a < width or legal[i * width + a] != 1:
                t, s = int(self._row_table[i]), int(self._row_seat[i])
                allowed = [b for b in range(width) if legal[i * width + b] == 1]
                raise ValueError(f"row {i} (table {t}, seat {s}): action {a} is not legal; "
                                 f"legal are {allowed}. No table was changed.")
        games = self.games
        self._rewards[:] = 0
        self._hand_over[:] = False
        done_tables = []
        if cython.compiled:  # typed memoryviews: C reads
            row_table, row_seat = self._row_table, self._row_seat
        else:  # as Python, lists of ints (a numpy array's item is a numpy scalar, slow to make and compare)
            row_table, row_seat = self._row_table[:n].tolist(), self._row_seat[:n].tolist()
        ledger = self._ledger
        paid, decided, defer = ledger.paid, ledger.decided, ledger.defer
        acts = acts_list
        i = 0
        while i < n:  # the k rows of table t from row i on
            t = row_table[i]
            k = 1
            while i + k < n and row_table[i + k] == t:
                k += 1
            game = games[t]
            if k == 1:
                game.step(row_seat[i], acts[i])
            else:  # one window: answered in the engine's asking order, as the AEC env asks, each
                # answer followed by what it forces (a seat's next pick with one choice), as there
                chosen = {row_seat[j]: acts[j] for j in range(i, i + k)}
                for s in list(game.pending):
                    game.step(s, chosen[s])
                    if len(game.pending.get(s, ())) == 1:  # its next pick is forced: played now, as there
                        game.play_forced()
            i += k
            if game.pending:
                game.play_forced()
            if game.payments != paid[t]:
                self._credit(t, game)
            if defer and not all(decided[t]):  # defer_early_payments: a seat's first decision brings its held payments
                for j in range(i - k, i):
                    s = row_seat[j]
                    if not decided[t][s]:
                        self._rewards[t, s] += ledger.decide(t, s)
                for s in game.seats_settled:  # a seat whose account closed gets what was held for it now
                    if not decided[t][s]:
                        self._rewards[t, s] += ledger.decide(t, s)
            if game.phase == DONE:  # game.done, its phase read as a C slot
                self._add_rewards(t, ledger.release(t))
                done_tables.append(t)
        for t in done_tables:
            self._hand_over[t] = True
            self.hands_played += 1
            self._deal(t)
        return self._gather()

    # -------------------------------------------------------------- helpers
    def _deal(self, t: int) -> None:
        game = self.ruleset.new_hand(self.config, self._rngs[t]) if self._hands is None else self._given_hand(t)
        self.games[t] = game
        if game is None:  # this table stops
            return
        if not self.log:
            game.events = None
        self._ledger.start(t)
        game.play_forced()
        if game.payments != self._ledger.paid[t]:
            self._credit(t, game)
        if game.done:  # cannot happen: every hand starts with the dealer's discard to choose
            raise RuntimeError(f"table {t}: a hand ended without any decision")

    def _given_hand(self, t: int) -> Any:
        """``hands(t)``, checked: a game of this ruleset not already at another table, or None.
        A bad answer leaves the env needing ``reset()`` (other tables may have stepped)."""
        game = self._hands(t)
        if game is None:  # this table stops
            return None
        other = next((u for u, g in enumerate(self.games) if g is game and u != t), None)
        if not isinstance(game, self.ruleset.game):
            problem = f"returned {type(game).__name__}: allowed a {self.ruleset.game.__name__} or None"
        elif game.done:
            problem = "returned a finished game"
        elif other is not None:
            problem = f"returned the game object already played at table {other}: each table needs its own game"
        else:
            return game
        self.games = []
        raise ValueError(f"hands({t}) {problem}. The VectorEnv needs reset() now.")

    def _credit(self, t: int, game: Any) -> None:
        """Add what the ledger says is due now (``cnmahjong.envs.core.rewards``) to table ``t``'s rewards."""
        due = self._ledger.pay(t, game.payments)
        if due is not None:
            self._add_rewards(t, due)

    @cython.locals(rewards="float[:, :]", s=cython.Py_ssize_t, d=cython.double)
    def _add_rewards(self, t: int, amounts: list[float]) -> None:
        """``amounts`` (one a seat) added to table ``t``'s rewards: each sum made in double precision
        and stored as float32, as numpy adds a list to the row, in one loop (no array made of the list)."""
        rewards = self._rewards
        for s in range(NUM_SEATS):
            d = amounts[s]
            rewards[t, s] = float(rewards[t, s]) + d

    @cython.locals(game=TableGame, twin=Twin, pending=dict, n=cython.Py_ssize_t, size=cython.Py_ssize_t,
                   actions=cython.Py_ssize_t, capacity=cython.Py_ssize_t, tables="long long[:]", seats="long long[:]")
    def _gather(self) -> Batch:
        """Rows of the pending decisions, table by table, seat by seat, written into the buffers."""
        in_place = cython.compiled  # the masks' C loops; as Python a row made whole is copied in
        buf, view, mask_buf, mask_view = self._planes, self._planes_view, self._masks, self._masks_view
        capacity = len(self._table)
        size, actions = len(buf) // capacity, self.ruleset.num_actions
        n = 0
        encoders = self._encoders
        tables, seats = self._row_table, self._row_seat  # each row's table and seat (private), as it is made
        for t, (game, write) in enumerate(zip(self.games, self._writers, strict=True)):
            if game is None:
                continue
            pending = game.pending
            for s in pending if len(pending) == 1 else sorted(pending):
                if n == capacity:
                    raise RuntimeError(f"more decisions are pending at {self.num_tables} tables than the "
                                       f"{self.ruleset.max_to_act} per table that "
                                       f"{self.ruleset.game.__name__}.MAX_TO_ACT declares (the ruleset must "
                                       f"declare the most seats that decide at once)")
                tables[n] = t
                seats[n] = s
                if write is not None:  # the encoder writes its planes in place
                    if type(write) is Twin:  # its compiled twin: a C call
                        twin = write
                        twin.planes_into(game, s, buf, n * size)
                    else:
                        write(game, s, buf, n * size)
                else:  # one copy through the memoryview (a bytearray slice would copy bytes twice)
                    row = encoders[t].planes(game, s)
                    try:  # the view refuses a row of another length, writing nothing
                        view[n * size:(n + 1) * size] = row
                    except (TypeError, ValueError):
                        got = f"{len(row)} bytes" if isinstance(row, bytes | bytearray) else type(row).__name__
                        raise ValueError(f"{type(encoders[t]).__name__}.planes gave {got}, its encoding has "
                                         f"{size} (bytes or bytearray)") from None
                if in_place:
                    game.legal_mask_into(s, mask_buf, n * actions)
                else:
                    mask_view[n * actions:(n + 1) * actions] = game.legal_mask(s)
                n += 1
        self._n = n
        self._table[:n] = self._row_table[:n]  # the batch's copies
        self._seat[:n] = self._row_seat[:n]
        self._legal = bytes(mask_view[:n * actions])  # private: the caller may write batch.mask
        if not n:
            return Batch(obs=self._obs[:0], mask=self._mask[:0], table=self._table[:0], seat=self._seat[:0],
                         rewards=self._rewards, hand_over=self._hand_over,
                         state=None if self._state is None else self._state[:0])
        obs = self._obs[:n]
        if self.obs_dtype != np.uint8:
            self.encoding.to_float(np.frombuffer(buf, dtype=np.uint8, count=n * size).reshape(n, *obs.shape[1:]),
                                   out=obs)
        return Batch(obs=obs, mask=self._mask[:n], table=self._table[:n], seat=self._seat[:n], rewards=self._rewards,
                     hand_over=self._hand_over, state=None if self._state is None else self._gather_state(n))

    def _gather_state(self, n: int) -> np.ndarray:
        """Each row's table state, made once per table with the table's own encoder."""
        layout = self.state_layout
        assert layout is not None and self._state is not None
        planes: list[bytes] = []
        last = -1
        for t in self._row_table[:n].tolist():  # a table's rows together
            if t != last:
                state, last = layout.planes(self.games[t], self._encoders[t]), t
            planes.append(state)
        u8 = np.frombuffer(b"".join(planes), dtype=np.uint8).reshape(n, *layout.shape)
        out = self._state[:n]
        if self.obs_dtype == np.uint8:
            out[:] = u8
        else:
            layout.to_float(u8, out=out)
        return out

"""``VectorEnv``: rows equal the AEC env's observations, rewards are whole, windows are simultaneous."""

from __future__ import annotations

import numpy as np
import pytest

from cnmahjong.envs.changsha import actions as A
from cnmahjong.envs.changsha.env import raw_env
from cnmahjong.envs.hangzhou.env import raw_env as hangzhou_env
from cnmahjong.envs.vector import VectorEnv

RULESETS = [("changsha", raw_env), ("hangzhou", hangzhou_env)]


def random_actions(batch, rng):
    return (rng.random(batch.mask.shape) * batch.mask).argmax(axis=1)


def _drive_aec(aec, chosen):
    """Step the AEC env through the seats in ``chosen`` (seat -> action), in its own order."""
    left = dict(chosen)
    while left:
        seat = aec.agent_name_mapping[aec.agent_selection]
        aec.step(int(left.pop(seat)))


def by_table(batch, actions, tables):
    """The actions of a batch as one ``{seat: action}`` per table."""
    chosen = [{} for _ in range(tables)]
    for i, a in enumerate(actions):
        chosen[batch.table[i]][int(batch.seat[i])] = a
    return chosen


def drive_aec_rewards(aec, chosen):
    """``_drive_aec``, summing every seat's rewards over the window's AEC steps."""
    got = np.zeros(4)
    left = dict(chosen)
    while left:  # the AEC env asks the window's seats one by one
        seat = aec.agent_name_mapping[aec.agent_selection]
        _drive_aec(aec, {seat: left.pop(seat)})
        got += [aec.rewards[f"player_{s}"] for s in range(4)]
    return got


def _finish_aec(aec):
    while aec.agents:
        aec.step(None)


@pytest.mark.parametrize("obs_dtype", [np.float32, np.uint8])
@pytest.mark.parametrize("ruleset, make_aec", RULESETS)
def test_rows_equal_the_aec_env_bit_for_bit(obs_dtype, ruleset, make_aec):
    """Observation rows, masks and (``state=True``) the state rows equal the AEC env's
    ``observe`` and ``state()`` at every step of lockstep play."""
    venv = VectorEnv(num_tables=3, seed=11, obs_dtype=obs_dtype, ruleset=ruleset, state=True)
    planes_to_float = venv.ruleset.to_float
    state_to_float = venv.state_layout.to_float
    batch = venv.reset()
    aecs = []
    for t in range(3):
        e = make_aec()
        e.reset(seed=venv.table_seeds[t])
        aecs.append(e)
    rng = np.random.default_rng(0)
    hands = 0
    compared = 0
    while hands < 12:
        for t, aec in enumerate(aecs):
            rows = np.flatnonzero(batch.table == t)
            assert sorted(aec.game.pending) == batch.seat[rows].tolist()  # every pending seat, by seat
            for i in rows:
                o = aec.observe(f"player_{batch.seat[i]}")
                got = batch.obs[i] if obs_dtype == np.float32 else planes_to_float(batch.obs[i])
                assert got.dtype == np.float32 and got.tobytes() == o["observation"].tobytes()
                assert np.array_equal(batch.mask[i], o["action_mask"])
                st = batch.state[i] if obs_dtype == np.float32 else state_to_float(batch.state[i])
                assert st.dtype == np.float32 and st.tobytes() == aec.state().tobytes()
                compared += 1
        actions = random_actions(batch, rng)
        chosen = [{} for _ in aecs]
        for i, a in enumerate(actions):
            chosen[batch.table[i]][int(batch.seat[i])] = a
        batch = venv.step(actions)
        for t, aec in enumerate(aecs):
            _drive_aec(aec, chosen[t])
            if batch.hand_over[t]:
                assert all(aec.terminations.values())
                _finish_aec(aec)
                aec.reset()  # the table's stream continues as the AEC env's does
                hands += 1
            assert aec.game.events == venv.games[t].events
    assert compared > 300


@pytest.mark.parametrize("ruleset", ["changsha", "hangzhou"])
def test_rewards_sum_to_zero_and_equal_the_settlement(ruleset):
    venv = VectorEnv(num_tables=8, seed=3, reward_scale=2.0, ruleset=ruleset)
    batch = venv.reset()
    rng = np.random.default_rng(1)
    paid = np.zeros((8, 4))
    checked = 0
    while checked < 60:
        before = list(venv.games)
        batch = venv.step(random_actions(batch, rng))
        paid += batch.rewards
        for t in np.flatnonzero(batch.hand_over):
            game = before[t]
            assert game.done and venv.games[t] is not game  # a new hand was dealt
            assert paid[t] == pytest.approx(np.array(game.result.payments) / 2.0)
            assert paid[t].sum() == pytest.approx(0.0)
            paid[t] = 0
            checked += 1
        # a seat with no row at this step is still paid (rewards cover all four seats)
        assert batch.rewards.shape == (8, 4)


def test_simultaneous_rows_resolved_by_priority():
    """A window's seats come as rows of one batch; PENG beats CHI and HU beats both, whatever
    the row order."""
    venv = VectorEnv(num_tables=16, seed=5)
    batch = venv.reset()
    rng = np.random.default_rng(2)
    seen_peng_over_chi = seen_multi = 0
    for _ in range(4000):
        actions = random_actions(batch, rng)
        expect = []
        for t in np.unique(batch.table):
            rows = np.flatnonzero(batch.table == t)
            if len(rows) < 2:
                continue
            seen_multi += 1
            game = venv.games[t]
            assert game.phase in ("claim", "rob", "kong_discard", "haidi_discard")
            assert set(batch.seat[rows].tolist()) == set(game.pending)
            pengs = [i for i in rows if batch.mask[i, A.PENG]]
            chis = [i for i in rows if batch.mask[i, A.CHI_ACTIONS].any()
                    and not batch.mask[i, A.HU]]
            huable = [i for i in rows if batch.mask[i, A.HU]]
            if pengs and chis and not huable and pengs[0] not in chis:
                p, c = pengs[0], chis[0]
                actions[p] = A.PENG
                actions[c] = int(np.flatnonzero(batch.mask[c, A.CHI_ACTIONS])[0]) + A.CHI_ACTIONS[0]
                for i in rows:
                    if i not in (p, c):
                        actions[i] = A.PASS
                expect.append((t, int(batch.seat[p]), game))
        batch = venv.step(actions)
        for _t, seat, game in expect:
            assert game.melds[seat][-1].kind == "peng"
            seen_peng_over_chi += 1
        if seen_peng_over_chi >= 3:
            break
    assert seen_multi > 0 and seen_peng_over_chi >= 3


def test_same_seed_same_run_and_auto_reset():
    def run(seed):
        venv = VectorEnv(num_tables=4, seed=seed, obs_dtype=np.uint8)
        batch = venv.reset()
        rng = np.random.default_rng(9)
        out = []
        for _ in range(300):
            batch = venv.step(random_actions(batch, rng))
            out.append((batch.obs.copy(), batch.mask.copy(), batch.table.copy(), batch.seat.copy(),
                        batch.rewards.copy(), batch.hand_over.copy()))
        return out, venv.hands_played

    a, hands = run(7)
    b, _ = run(7)
    c, _ = run(8)
    assert hands > 4  # tables dealt new hands by themselves
    assert all(all(np.array_equal(x, y) for x, y in zip(ra, rb, strict=True)) for ra, rb in zip(a, b, strict=True))
    assert not all(np.array_equal(ra[0], rc[0]) for ra, rc in zip(a, c, strict=True))


def test_bad_actions_change_nothing():
    venv = VectorEnv(num_tables=2, seed=1)
    with pytest.raises(RuntimeError, match="before reset"):
        venv.step([0, 0])
    batch = venv.reset()
    events = [list(g.events) for g in venv.games]
    n = len(batch)
    illegal = np.array([int(np.flatnonzero(batch.mask[i] == 0)[0]) for i in range(n)])
    with pytest.raises(ValueError, match="row 0 .*is not legal"):
        venv.step(illegal)
    with pytest.raises(ValueError, match=f"actions must be {n} integers"):
        venv.step(np.zeros(n + 1, dtype=int))
    with pytest.raises(ValueError, match="actions must be"):
        venv.step(np.zeros(n) + 0.5)
    with pytest.raises(ValueError, match="is not legal"):
        venv.step(np.full(n, 500))
    assert [g.events for g in venv.games] == events
    with pytest.raises(ValueError, match="obs_dtype"):
        VectorEnv(obs_dtype=np.float64)
    with pytest.raises(ValueError, match="num_tables=0"):
        VectorEnv(num_tables=0)
    with pytest.raises(ValueError, match="unknown ruleset"):
        VectorEnv(ruleset="guangdong")


def test_given_hands_and_tables_that_stop():
    """``hands=`` feeds each table its next game; a table given None stops, and once all have
    stopped the batch is empty and stepping again is an error."""
    from cnmahjong.envs.changsha.game import new_hand
    from cnmahjong.envs.changsha.rules import RuleConfig

    queue = [3, 4, 5]
    dealt = []

    def hands(table):
        if not queue:
            return None
        seed = queue.pop(0)
        dealt.append((table, seed))
        return new_hand(RuleConfig(), np.random.default_rng(seed))

    venv = VectorEnv(num_tables=2, hands=hands)
    batch = venv.reset()
    assert dealt == [(0, 3), (1, 4)] and set(batch.table.tolist()) == {0, 1}
    rng = np.random.default_rng(0)
    finished = 0
    while len(batch):
        batch = venv.step(random_actions(batch, rng))
        finished += int(batch.hand_over.sum())
    assert finished == 3 and len(dealt) == 3 and venv.games == [None, None]
    with pytest.raises(RuntimeError, match="every table stopped"):
        venv.step(np.zeros(0, dtype=np.int64))
    with pytest.raises(TypeError, match="hands must be a function"):
        VectorEnv(hands=[1, 2])


@pytest.mark.parametrize("ruleset", ["changsha", "hangzhou", "sichuan"])
def test_rows_written_in_place_equal_the_masks_and_planes(ruleset):
    """A batch's rows are written into the env's buffers (``legal_mask_into``, an encoder's
    ``planes_into`` or its ``planes`` copied in): at every step each row equals ``legal_mask`` and
    ``planes`` asked afresh, and a row written at an offset leaves the bytes around it alone."""
    from cnmahjong.envs.core.ruleset import get_ruleset

    enc = get_ruleset(ruleset).encoding
    venv = VectorEnv(num_tables=4, seed=3, obs_dtype=np.uint8, ruleset=ruleset)
    batch = venv.reset()
    rng = np.random.default_rng(1)
    fresh = enc.encoder()
    size = int(np.prod(enc.shape))
    for _ in range(200):
        for i, (t, s) in enumerate(zip(batch.table.tolist(), batch.seat.tolist(), strict=True)):
            game = venv.games[t]
            assert batch.mask[i].tobytes() == bytes(game.legal_mask(s))
            assert batch.obs[i].tobytes() == fresh.planes(game, s)
            buf = bytearray(b"\xab" * (3 * size))
            if venv._writers[t] is not None:
                venv._writers[t](game, s, buf, size)
            else:
                buf[size:2 * size] = fresh.planes(game, s)
            assert buf[:size] == buf[2 * size:] == b"\xab" * size and buf[size:2 * size] == fresh.planes(game, s)
            row = bytearray(b"\xab" * (len(batch.mask[i]) + 2))
            game.legal_mask_into(s, row, 1)
            assert row[0] == row[-1] == 0xAB and row[1:-1] == game.legal_mask(s)
        batch = venv.step(random_actions(batch, rng))


@pytest.mark.parametrize("ruleset", ["hangzhou", "sichuan"])
def test_planes_into_refuses_what_does_not_fit(ruleset):
    """An encoder's ``planes_into`` (its rows copied in place, ``write_rows``) writes exactly its
    ``planes``, and refuses a row past the buffer's end, a negative offset or a buffer that is not
    a bytearray, naming the sizes, writing nothing."""
    from cnmahjong.envs.core.ruleset import get_ruleset

    rs = get_ruleset(ruleset)
    game = rs.game(rs.as_config(rs.default_rules), seed=1)
    seat = next(iter(game.pending))
    enc = rs.encoding.encoder()
    planes = enc.planes(game, seat)
    size = len(planes)
    buf = bytearray(b"\x07" * (size + 3))
    enc.planes_into(game, seat, buf, 2)
    assert buf == b"\x07\x07" + planes + b"\x07"
    buf = bytearray(b"\x07" * (size + 3))
    for offset in (4, -1, size + 4):
        with pytest.raises(ValueError, match=f"{size}"):
            enc.planes_into(game, seat, buf, offset)
    assert buf == b"\x07" * (size + 3)
    with pytest.raises(TypeError):
        enc.planes_into(game, seat, bytes(size + 3), 0)


def test_a_subclass_that_changes_planes_is_copied_not_written_by_its_parents_writer():
    """``row_writer``, compiled: an encoder's ``planes_into`` writes its own class's planes; a
    subclass that overrides ``planes`` alone gets none (its planes copied in), one that overrides
    both keeps its own, a writer set on the instance is taken as it is. As Python none is taken (a
    writer would only add a call to the same copy). Either way the batch holds the subclass's planes."""
    from cnmahjong.envs import hotpath
    from cnmahjong.envs.hangzhou.observation import Encoder
    from cnmahjong.envs.vector import row_writer

    class Changed(Encoder):
        def planes(self, game, seat):
            return bytes(len(super().planes(game, seat)))

    class Both(Changed):
        def planes_into(self, game, seat, buf, offset):
            buf[offset:offset + 1] = b"\x01"

    class Kept(Encoder):
        pass

    class Own:
        def planes(self, game, seat):
            return b""

    own = Own()
    own.planes_into = lambda game, seat, buf, offset: None
    assert row_writer(Changed()) is None and row_writer(object()) is None
    if hotpath.status()["cnmahjong.envs.vector"] == "compiled":
        assert row_writer(Both()).__func__ is Both.planes_into
        assert row_writer(Kept()) is not None and row_writer(Encoder()) is not None
        assert row_writer(own) is own.planes_into
    else:
        assert [row_writer(e) for e in (Both(), Kept(), Encoder(), own)] == [None] * 4
    venv = VectorEnv(num_tables=2, seed=0, obs_dtype=np.uint8, ruleset="hangzhou")
    batch = venv.reset()
    venv._encoders = [Changed(), Changed()]
    venv._writers = [row_writer(e) for e in venv._encoders]
    assert not venv._gather().obs[: len(batch)].any()  # the subclass's planes (zeros), not its parent's


@pytest.mark.parametrize("ruleset", ["changsha", "hangzhou", "sichuan"])
def test_a_batch_row_is_written_by_the_twin_itself_only_for_the_specs_own_encoder(ruleset: str):
    """``row_writer(encoder, spec)``: for an encoder of exactly ``spec.encoder``'s class the spec's
    ``planes_into`` (the compiled twin, no forwarding method between), for a subclass its own
    method's way as before; the rows are the same bytes either way. The pure package has no twin."""
    from cnmahjong.envs import hotpath
    from cnmahjong.envs.core.ruleset import get_ruleset
    from cnmahjong.envs.vector import row_writer

    spec = get_ruleset(ruleset).encoding
    compiled = hotpath.status()[f"cnmahjong.envs.{ruleset}._planes"] == "compiled"
    assert (spec.planes_into is not None) == compiled

    class Kept(spec.encoder):
        pass

    if hotpath.status()["cnmahjong.envs.vector"] == "compiled" and compiled:
        assert row_writer(spec.encoder(), spec) is spec.planes_into
        kept = row_writer(Kept(), spec)  # its inherited method: Changsha's is the twin itself, the others forward
        assert kept is not None and (kept is spec.planes_into) == (ruleset == "changsha")
    venv = VectorEnv(num_tables=3, seed=5, obs_dtype=np.uint8, ruleset=ruleset)
    batch = venv.reset()
    for _ in range(30):
        batch = venv.step([int(np.flatnonzero(m)[0]) for m in batch.mask])
    direct = venv._gather().obs[: len(batch)].copy()
    venv._writers = [row_writer(Kept()) for _ in venv._encoders]  # the encoder's own method, or copied
    np.testing.assert_array_equal(venv._gather().obs[: len(batch)], direct)


def test_in_place_rows_refuse_what_does_not_fit():
    """``legal_mask_into`` and the compiled planes' ``planes_into`` refuse a row past the buffer's
    end, a negative offset or a buffer that is not a bytearray, naming the sizes, and write
    nothing; the copying writer refuses planes of the wrong length."""
    from cnmahjong.envs import vector
    from cnmahjong.envs.changsha.game import ChangshaGame
    from cnmahjong.envs.changsha.observation import Encoder

    game = ChangshaGame(seed=1)
    seat = next(iter(game.pending))
    n = len(game.legal_mask(seat))
    planes = len(Encoder().planes(game, seat))
    writers = [(game.legal_mask_into, n)]
    if hasattr(Encoder, "planes_into"):  # the compiled twin
        writers.append((lambda s, b, o: Encoder.planes_into(game, s, b, o), planes))
    for write, size in writers:
        buf = bytearray(b"\x07" * (size + 3))
        for offset in (4, -1, size + 4):
            with pytest.raises(ValueError, match=f"{size}"):
                write(seat, buf, offset)
        assert buf == b"\x07" * (size + 3)
        with pytest.raises(TypeError):
            write(seat, bytes(size + 3), 0)
    row = bytearray(b"\x07" * n)
    for bad in ([3, n], [-1, 3]):  # a ruleset's action outside the row: refused before a byte is written
        game.pending = {seat: bad}
        with pytest.raises(ValueError, match="outside"):
            game.legal_mask_into(seat, row, 0)
        assert row == b"\x07" * n

    class Short(Encoder):  # an encoder whose planes are one byte short, copied in (no planes_into)
        planes_into = None

        def planes(self, game, seat):
            return super().planes(game, seat)[1:]

    venv = vector.VectorEnv(num_tables=2, seed=0, obs_dtype=np.uint8)
    venv.reset()
    venv._encoders[1] = Short()
    venv._writers[1] = None
    with pytest.raises(ValueError, match=f"Short.planes gave {planes - 1} bytes, its encoding has {planes}"):
        venv._gather()


@pytest.mark.parametrize("ruleset", ["changsha", "hangzhou", "sichuan"])
@pytest.mark.parametrize("own_encoder", [False, True], ids=["built", "encoders_own_path"])
def test_a_table_without_event_log_plays_and_pays_the_same(ruleset, own_encoder, monkeypatch):
    """``log=False``: the games keep no log, and every batch (planes, masks, rows, rewards, ends,
    global state) equals the logged tables' over many hands; also through the encoders' own
    incremental path, whose caches must tell one log-free hand from the next at the same table."""
    if own_encoder:
        import importlib

        obs = importlib.import_module(f"cnmahjong.envs.{ruleset}.observation")
        monkeypatch.setattr(obs, "_compiled_planes", None, raising=False)
        monkeypatch.setattr(obs, "_compiled_planes_into", None, raising=False)
    logged = VectorEnv(num_tables=3, seed=5, ruleset=ruleset, obs_dtype=np.uint8, state=True)
    bare = VectorEnv(num_tables=3, seed=5, ruleset=ruleset, obs_dtype=np.uint8, state=True, log=False)
    a, b = logged.reset(), bare.reset()
    rng = np.random.default_rng(3)
    paid = np.zeros((3, 4))
    for _ in range(700):
        for name in ("obs", "mask", "table", "seat", "rewards", "hand_over", "state"):
            assert np.array_equal(getattr(a, name), getattr(b, name)), name
        assert all(g.events is None for g in bare.games)
        assert all(g.events for g in logged.games)
        paid += b.rewards
        actions = random_actions(a, rng)
        a, b = logged.step(actions), bare.step(actions)
    assert bare.hands_played >= 6  # hands ended and new ones dealt at the same tables
    assert np.any(paid != 0)
    with pytest.raises(TypeError, match="log must be True or False"):
        VectorEnv(log=0)


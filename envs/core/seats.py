"""The table: four seats and their turn order, the one home of these facts for every layer."""

NUM_SEATS = 4
"""Seats at a table (every ruleset here is played by four)."""
NEXT = tuple((s + 1) % NUM_SEATS for s in range(NUM_SEATS))
"""The seat after ``s`` in turn order."""
OTHERS = tuple(tuple((s + i) % NUM_SEATS for i in (1, 2, 3)) for s in range(NUM_SEATS))
"""The other seats after ``s``, in turn order (the order claims are asked in)."""

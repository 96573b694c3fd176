"""Speed figures (``make bench``): the measures (``rates``, the rulesets' own rules-core rows in
their ``benchmarks`` modules) and the command line (``cli``: ``python -m cnmahjong.training.bench``,
``cnmahjong-bench``)."""

import os

# One core: numpy's BLAS must not start worker threads that compete with the measured loop (set
# here, before ``rates`` or ``cli`` import numpy).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

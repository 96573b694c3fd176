"""A Ray cluster of several nodes on this machine, every node on 127.0.0.1 (Ray otherwise picks
the host's interface address): the multi-node tests' one copy of the set-up and tear-down."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

LOOPBACK = "127.0.0.1"


@contextlib.contextmanager
def loopback_cluster(nodes: int = 2) -> Iterator[Any]:
    """``nodes`` nodes of one CPU each (the head without a dashboard); Ray is shut down and
    every node stopped on leaving."""
    import ray
    from ray.cluster_utils import Cluster

    cluster = Cluster()
    try:
        cluster.add_node(num_cpus=1, node_ip_address=LOOPBACK, include_dashboard=False)
        for _ in range(nodes - 1):
            cluster.add_node(num_cpus=1, node_ip_address=LOOPBACK)
        cluster.wait_for_nodes()
        yield cluster
    finally:
        ray.shutdown()
        cluster.shutdown()

"""Issue 22 item 5: the 3R engine's faster paths give the same answers as the plain ones
(TR-68 land areas of the SR lister, the TR-02 idle-phase scan, the position keys)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

from grognard.core.paths import edge_tables
from grognard.engine.scenario import load_scenario
from grognard.third_reich.play import legal as tr_legal


def _graph_areas(m, free):
    """The reference: connected components of the free hexes' adjacency graph."""
    et = edge_tables(m)
    a = np.repeat(np.arange(m.n), 6)
    b = et.nbr.ravel()
    keep = (b >= 0) & free[a] & free[np.maximum(b, 0)]
    graph = coo_matrix((np.ones(int(keep.sum()), dtype=np.int8), (a[keep], b[keep])),
                       shape=(m.n, m.n)).tocsr()
    _, labels = connected_components(graph, directed=False)
    return np.where(free, labels, -1)


@pytest.mark.parametrize("name", ["tr-1939-campaign", "demo-third-reich"])
@pytest.mark.parametrize("share", [0.0, 0.3, 0.7, 1.0])
def test_tr68_land_areas_are_the_graph_components(name, share):
    """TR-68: the SR lister's land areas (the graph's rows built straight from the neighbour
    table) are the connected components of the free hexes with the same numbers (areas in
    the order of their lowest hex, so "the lowest numbered free neighbour" of a blocked hex
    is the same area); -1 off the free hexes."""
    m = load_scenario(name).map
    free = np.random.default_rng(7).random(m.n) < share
    got = tr_legal.land_areas(m, free)
    assert got.tolist() == _graph_areas(m, free).tolist()
    assert (got[~free] == -1).all()
    if share == 1.0:  # one connected land mass at least: some area has several hexes
        assert np.bincount(got[got >= 0]).max() > 1

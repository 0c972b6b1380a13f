"""``allocate_escorts`` {pp}: EF-06, the Allies allocate PP to Enhanced Escort Development.

In the production phase, in lots of 5 PP, once a month. Each full season of 5 PP or more
cancels one U-boat modifier of the next season; three consecutive turns matching the U-boat
allocation with no modifier left nullify the U-boat programme for good (EF-06, judged by the
referee as the next month starts).
"""

from __future__ import annotations

from typing import ClassVar

from grognard.eurofront.orders.production.allocate_uboats import AllocateUboats
from grognard.eurofront.state_types import Programme


class AllocateEscorts(AllocateUboats):
    kind = "allocate_escorts"
    rule = "EF-06"
    help = "EF-06 Allied PP to Enhanced Escort Development."
    side: ClassVar[str] = "allies"
    programme: ClassVar[Programme] = "escort_pp"
    title: ClassVar[str] = "Enhanced Escort Development"

"""The turn: "Fixed turn order", "Normal turn sequence of play", "Front options", "Weather, regions,
and seasons" (TR-01..TR-06) and the "Updated BRP costs" of options and declarations (TR-25,
TR-31); and the vocabulary every section shares: the combat forces (``forces``: ground units,
air units, fleets) and the combat readings (``combat_readings``)."""

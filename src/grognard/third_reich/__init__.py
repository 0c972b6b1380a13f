"""Revised Third Reich, one sub-package per group of rule-book sections.

``turn`` (turn order, sequence, options, weather; the combat forces and readings), ``economy``
(BRPs, Year Start, lend lease, builds, economic loss, starting values), ``conquest`` (control,
conquest, minors, victory), ``movement`` (ZOCs, movement, SRs), ``supply`` (supply and
isolation), ``combat`` (land combat, attrition, airborne, amphibious, bridgeheads),
``air_naval`` (air bases and zones, air and naval combat, naval operations and interception),
``strategic`` (strategic warfare, the Murmansk box) and ``play`` (the ``third_reich`` engine
system over all of them). Between the sections and ``play``, the position modules at the top
(``board``, ``war``, ``state``, ``arrivals``, ``capture``, ``russian_winter``, ``reactions``):
docs/ARCHITECTURE.md."""

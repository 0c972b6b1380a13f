"""EuroFront optional rules (EF-01..EF-18) on a minimal EuroFront model.

Importing the package registers the engine rule system ``eurofront`` (sequential activation,
:mod:`grognard.eurofront.system`).
"""

from grognard.eurofront import system as system

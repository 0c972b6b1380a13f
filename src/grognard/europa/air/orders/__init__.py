"""The Europa air-phase Orders (EUR-23..EUR-28): ``air_mission``, ``air_transfer``,
``fly_missions``, ``fighter_sweep``, ``intercept``, ``ground_support``, ``interdiction``,
``airbase_attack``, ``airbase_repair`` and ``strategic_bombing``, one module each; the rules
they drive are in :mod:`grognard.europa.air.commands`, :mod:`grognard.europa.air.missions` and
:mod:`grognard.europa.air.transfer`."""

"""Land combat: "Changes to land combat" (TR-32..TR-36), "Attrition" (TR-38..TR-42), "Russian winter"
(TR-84), "Airborne operations" (TR-51..TR-53), "Amphibious operations", "Large invasions",
"Bridgeheads" (TR-61..TR-63). The forces they use and the combat readings are in ``turn/``."""

"""Supply: "Supply and isolation attrition" and "USSR supply sources" (TR-72..TR-74), on the map."""

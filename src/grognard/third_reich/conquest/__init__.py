"""Control and conquest: "Conquests, minor allies, and BRP gains from them" (TR-22..TR-26), city
control in play, and the campaign's minors, neutrals, Ribbentrop-Molotov and victory as data."""

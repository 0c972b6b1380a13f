"""Movement: "ZOCs and changes to land movement" (TR-27, TR-28) and "SR and SR limits", "SR ending
locations", "SRs by land", "SRs by sea and sea interception" (TR-66..TR-70)."""

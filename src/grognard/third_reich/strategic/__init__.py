"""Strategic warfare: "Strategic Warfare", "Strategic warfare in 1945", "The Happy Times" (TR-79..TR-82)
and "The Murmansk box and interception of lend lease to the USSR" (TR-20, TR-21)."""

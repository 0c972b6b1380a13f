"""The BRP economy: the ledger, "1940 Year Start Sequence" / "1941 and later Year Start Sequences"
(TR-07..TR-13), "Lend Lease procedures" (TR-14..TR-19), "Build locations", "Building airbases",
"Changes to replacements", "Build limits" (TR-64, TR-65, TR-71, TR-75, TR-76), "Economic loss from
conquest and air attack" (TR-77, TR-78) and the "Post playtest refinements" values (TR-85..TR-87)."""

"""Air and naval: "Air unit movement (staging) and stacking", "Air zones and contested air zones",
"Air operations, bases, and ranges", "Counter air missions" ... "Air and naval combat tables"
(TR-29, TR-30, TR-43..TR-50), "Naval operations" and "Naval interception" (TR-54..TR-60)."""

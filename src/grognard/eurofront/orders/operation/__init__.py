"""What an activated HQ orders during its operation (EF-18 step 5; EF-03, EF-09, EF-11..EF-16):
block moves, strategic rail and paratroop moves, Airpower Disruption, and ending the operation
(its battles are fought)."""

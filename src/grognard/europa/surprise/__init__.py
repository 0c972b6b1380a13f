"""Europa rule 47: surprise turns - local and invasion surprise, the plan, its effects, airbase
surprise."""

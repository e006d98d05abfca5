"""The table runtime: lock, engine, one unit of work, and what happens next, as an Outcome."""

"""What keeps updates and workers from stepping on each other: per-table locks, the
scheduler's leadership, update claims (in one process, or through Redis for several)."""

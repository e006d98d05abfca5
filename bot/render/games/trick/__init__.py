"""The trick-taking family's screens (Мушка, Памфил, Шутиха, Мистигри)."""

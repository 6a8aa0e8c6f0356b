"""The questioner (seed 000, docs/seeds.md): each round's 5-10 questions."""

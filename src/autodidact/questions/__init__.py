"""The questioner (seed 000): each round's 5-10 questions."""

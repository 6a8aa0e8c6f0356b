"""evidence.json 1.2: models, validator and the research agent (seed 003, docs/seeds.md)."""

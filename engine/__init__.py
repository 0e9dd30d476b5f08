"""The rules engine: cards, hands, variants, scoring and the solver; pure Python."""

"""Many bot games and the figures a designer balances a game by."""

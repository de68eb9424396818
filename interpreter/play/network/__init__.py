"""A networked table: the host keeps the game, each player joins from their own terminal."""

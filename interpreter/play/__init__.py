"""Playing at the table: the session loop and what the terminal shows."""

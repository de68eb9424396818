"""Bots: agents that pick an option for a seat."""

from .random import AGENTS, Agent, RandomAgent, bot_seed

__all__ = ["AGENTS", "Agent", "RandomAgent", "bot_seed"]

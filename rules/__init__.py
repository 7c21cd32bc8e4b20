"""The pure rules core: dice, the rule-system plugin interface and the five systems.

Nothing in this package does I/O, reads a clock, uses asyncio or pydantic, or
draws a random number except through a :class:`rules.dice.DiceSource`.
"""

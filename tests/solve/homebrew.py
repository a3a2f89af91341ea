"""Homebrew card files the solver tests share (YAML text, as a user writes it)."""

#: A wild card copying any Beast of the game, its strength included: a copy from the game
#: that takes a strength, which the sweep's tables do not describe, so `max` answers through
#: CP-SAT.
CHAMELEON = """
cards:
  - id: HB02
    name: Chameleon
    suit: Wild
    strength: 0
    text: "May take the name, suit and strength of any Beast in the game."
    copy: {from: game, suits: [Beast], takes: [name, suit, strength]}
"""

"""Majesty: For the Realm: the rules as data, a full game engine, final scoring, replays, bots.

It shares nothing with :mod:`fantasy_scorer.realms`; its command line is ``majesty-score``.
"""

"""The whole game of Fantasy Realms: the engine that deals and plays turns, bots, advice.

It plays by the rules core and scores with the searches of ``realms.solve``.
"""

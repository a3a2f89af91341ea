"""Fantasy Realms, the rules core: cards as data, hands, names, the order of resolution.

``effects`` → ``catalog`` → ``hand`` → ``resolve`` → ``explain``; ``solve/``, ``formats/`` and
``game/`` build on this core, which imports nothing outside it.
"""

"""Reading and writing the game's texts: hand files, share codes, table files, score sheets.

Formats turn text into :class:`~fantasy_scorer.realms.hand.Hand` objects and results into
text; they use the rules core and never the searches.
"""

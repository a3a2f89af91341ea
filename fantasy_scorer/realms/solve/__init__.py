"""The searches: optimal choices for a hand, the best hand from a pool, the best hand in the game.

Every search is checked against :func:`fantasy_scorer.realms.resolve.resolve`; ``api`` is the
entry point (``optimize``, ``best_hand``, ``max_hand``, ``score_hand``).
"""

"""``fr-score serve``: a scoring page for the table and its JSON API.

The page and the API share one service layer (:mod:`.service`); everything they need from the
scoring engine goes through :mod:`.engine`, so that the optimizer, the referee's trace, the
translated names and share codes each enter the web app at exactly one place.
"""

"""The command line: ``fr-score`` (Fantasy Realms) and ``majesty-score`` (Majesty).

One module per command family, their shared options in :mod:`.options`; nothing else in the
package imports from here.
"""

"""Data shipped with the rules core: the official card and suit names in the game's languages."""

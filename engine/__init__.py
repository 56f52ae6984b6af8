"""The rules engine: positions, legal plays, the transition check and the text formats.

It imports nothing else of gammoncam; everything above builds on it.
"""

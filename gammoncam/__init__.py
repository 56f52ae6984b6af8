"""The wiring of gammoncam: the command line, the frame loop and the referee session.

The packages below it keep a one-way dependency: ``engine`` at the bottom, ``vision``
above it, ``device`` and ``web_ui`` on engine types only, and this package on top.
"""

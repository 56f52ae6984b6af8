"""The referee box: a light and buzzer on a serial port, its protocol, driver and simulator.

``protocol`` (the lines, PROTOCOL.md), ``driver`` (``RefereeBox``, the host side),
``options`` (``--device PORT[:BAUD]`` for the commands), ``sim`` (a software box on a pty),
``firmware/`` (the Arduino Uno or Nano box). It uses engine types at most, never vision,
web_ui or gammoncam.
"""

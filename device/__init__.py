"""The referee box: a light and buzzer on a serial port, its protocol, driver and simulator."""

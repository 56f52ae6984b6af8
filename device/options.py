"""The ``--device PORT[:BAUD]`` option that ``watch``, ``demo`` and ``replay`` share.

>>> import argparse
>>> parser = argparse.ArgumentParser()
>>> add_device_option(parser)
>>> parser.parse_args(["--device", "/dev/ttyACM0:57600"]).device
DeviceSpec(port='/dev/ttyACM0', baud=57600)
"""

from __future__ import annotations

import argparse

from device.driver import BadDeviceSpec, DeviceSpec, RefereeBox


def _device_spec(text: str) -> DeviceSpec:
    try:
        return DeviceSpec.parse(text)
    except BadDeviceSpec as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_device_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--device``; a bad value ends the command with argparse's one-line error, status 2."""
    parser.add_argument(
        "--device",
        type=_device_spec,
        metavar="PORT[:BAUD]",
        help="serial port of a referee box that lights and beeps on each call, e.g. /dev/ttyUSB0 "
        "(baud 115200 unless given); see `gammoncam device-sim` for a software box",
    )


def open_device(args: argparse.Namespace, **kwargs) -> RefereeBox | None:
    """The box named by ``--device``, already started, or None without the option.

    A box that is missing or unplugged never blocks the caller: calls wait in the driver.
    Close it when the command ends so that calls still in flight reach the box.
    """
    if args.device is None:
        return None
    return RefereeBox.open(args.device, **kwargs)
